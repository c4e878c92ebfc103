package io.tributary.broker.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The aborted-transaction index of one segment, {@code <base>.txnindex}: the {@link AbortedTxn}s whose ABORT marker
 * lies in the segment, in marker order, in Kafka's file format. The file exists only once a segment has an aborted
 * transaction; its entries are also kept in memory (they are few), so a read_committed fetch never touches the disk
 * for them. Guarded by the owning segment's appender (the log's append lock); reads take a copy.
 */
final class TransactionIndex {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionIndex.class);

    private volatile Path file;
    private volatile List<AbortedTxn> entries;
    private FileChannel channel;
    /** How many of {@link #entries} (a prefix) the file holds: fewer after a failed write (a full disk), until one succeeds. */
    private int entriesInFile;

    TransactionIndex(Path file) throws IOException {
        this.file = file;
        this.entries = Files.exists(file) ? read(file) : List.of();
        this.entriesInFile = entries.size();
    }

    private static List<AbortedTxn> read(Path file) throws IOException {
        return AbortedTxn.readAll(ByteBuffer.wrap(Files.readAllBytes(file))); // a torn last entry: recovery writes it again
    }

    /** Writes a whole index of {@code entries} (in marker order) to {@code file} and fsyncs it. */
    static void write(Path file, List<AbortedTxn> entries) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(entries.size() * AbortedTxn.SIZE);
        entries.forEach(txn -> txn.writeTo(buffer));
        buffer.flip();
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
            out.force(true);
        }
    }

    /** The last offset (the marker's) of the newest entry, or -1 if there is none. */
    long lastMarkerOffset() {
        List<AbortedTxn> current = entries;
        return current.isEmpty() ? -1 : current.get(current.size() - 1).lastOffset();
    }

    /**
     * Adds {@code txn}, whose ABORT marker is in the log already: from now on read_committed fetches skip its records,
     * even if the file cannot take the entry now (a full disk). The file gets the entries it lacks with the next append
     * or flush, and a flush fails until it has them, so the recovery point stays below the marker and recovery after
     * a crash indexes it again.
     */
    void append(AbortedTxn txn) {
        if (txn.lastOffset() <= lastMarkerOffset()) {
            throw new IllegalArgumentException("aborted transaction " + txn + " does not follow the marker at "
                    + lastMarkerOffset() + " in " + file);
        }
        List<AbortedTxn> grown = new ArrayList<>(entries);
        grown.add(txn);
        entries = List.copyOf(grown);
        try {
            writeMissingEntries();
        } catch (IOException e) {
            LOG.warn("{} cannot take {} aborted transactions now (written with the next append or flush): {}", file,
                    entries.size() - entriesInFile, e.toString());
        }
    }

    /** Appends the entries the file lacks; a write that fails part-way is cut off, so the file holds whole entries. */
    private void writeMissingEntries() throws IOException {
        List<AbortedTxn> current = entries;
        if (entriesInFile == current.size()) {
            return;
        }
        ByteBuffer buffer = ByteBuffer.allocate((current.size() - entriesInFile) * AbortedTxn.SIZE);
        current.subList(entriesInFile, current.size()).forEach(txn -> txn.writeTo(buffer));
        buffer.flip();
        FileChannel out = channel();
        try {
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
        } catch (IOException e) {
            close(); // reopened at the last whole entry
            throw e;
        }
        entriesInFile = current.size();
    }

    /** Opened at the end of the entries the file holds: a torn entry after them (a failed write) is overwritten. */
    private FileChannel channel() throws IOException {
        if (channel == null) {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            channel.truncate((long) entriesInFile * AbortedTxn.SIZE);
            channel.position((long) entriesInFile * AbortedTxn.SIZE);
        }
        return channel;
    }

    /** See {@link AbortedTxn#collect}. */
    boolean collect(long fetchOffset, long upperBound, List<AbortedTxn> out) {
        return AbortedTxn.collect(entries, fetchOffset, upperBound, out);
    }

    /** Removes the entries whose marker lies at or after {@code offset}. */
    void truncateTo(long offset) throws IOException {
        List<AbortedTxn> kept = entries.stream().filter(txn -> txn.lastOffset() < offset).toList();
        if (kept.size() == entries.size()) {
            return;
        }
        entries = kept;
        entriesInFile = Math.min(entriesInFile, kept.size());
        if (Files.exists(file)) {
            channel().truncate((long) entriesInFile * AbortedTxn.SIZE);
            channel.position(channel.size());
        }
    }

    List<AbortedTxn> entries() {
        return entries;
    }

    void flush() throws IOException {
        writeMissingEntries();
        if (channel != null) {
            channel.force(true);
        }
    }

    void renameTo(Path target) throws IOException {
        if (Files.exists(file)) {
            Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
        }
        file = target;
    }

    /** The folder holding the file was renamed to {@code dir}. */
    void updateParentDir(Path dir) {
        file = dir.resolve(file.getFileName());
    }

    void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }

    void deleteIfExists() throws IOException {
        close();
        Files.deleteIfExists(file);
    }

    Path file() {
        return file;
    }
}

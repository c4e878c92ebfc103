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

/**
 * The aborted-transaction index of one segment, {@code <base>.txnindex}: the {@link AbortedTxn}s whose ABORT marker
 * lies in the segment, in marker order, in Kafka's file format. The file exists only once a segment has an aborted
 * transaction; its entries are also kept in memory (they are few), so a read_committed fetch never touches the disk
 * for them. Guarded by the owning segment's appender (the log's append lock); reads take a copy.
 */
final class TransactionIndex {
    private volatile Path file;
    private volatile List<AbortedTxn> entries;
    private FileChannel channel;

    TransactionIndex(Path file) throws IOException {
        this.file = file;
        this.entries = Files.exists(file) ? read(file) : List.of();
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

    void append(AbortedTxn txn) throws IOException {
        if (txn.lastOffset() <= lastMarkerOffset()) {
            throw new IllegalArgumentException("aborted transaction " + txn + " does not follow the marker at "
                    + lastMarkerOffset() + " in " + file);
        }
        ByteBuffer buffer = ByteBuffer.allocate(AbortedTxn.SIZE);
        txn.writeTo(buffer);
        buffer.flip();
        FileChannel out = channel();
        while (buffer.hasRemaining()) {
            out.write(buffer);
        }
        List<AbortedTxn> grown = new ArrayList<>(entries);
        grown.add(txn);
        entries = List.copyOf(grown);
    }

    private FileChannel channel() throws IOException {
        if (channel == null) {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            channel.position(channel.size() - channel.size() % AbortedTxn.SIZE);
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
        if (Files.exists(file)) {
            channel().truncate((long) kept.size() * AbortedTxn.SIZE);
            channel.position(channel.size());
        }
    }

    List<AbortedTxn> entries() {
        return entries;
    }

    void flush() throws IOException {
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

package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.UUID;

/**
 * Making writes durable before anything refers to them. On HDFS a stream's {@code hsync()} puts
 * its data on the datanodes' disks, and a namespace change (create, rename, delete) is in the
 * NameNode's edit log when the call returns. On the local filesystem a file's data and a
 * directory's entries survive a power loss only once fsynced, each on its own: the stream's
 * {@code hsync} is not enough behind Hadoop's checksumming local filesystem, so the file is forced
 * by path too, and the directory of every create or rename before anything names the file.
 */
public final class DurableFiles {
    private DurableFiles() {
    }

    /** Syncs and closes {@code out}, the stream of {@code file} on {@code fs}: its bytes are on disk when this returns. */
    public static void syncAndClose(FileSystem fs, Path file, FSDataOutputStream out) throws IOException {
        IOException failure = null;
        try {
            out.hsync();
        } catch (IOException e) {
            failure = e;
        }
        try {
            out.close();
        } catch (IOException e) {
            // An HDFS client that lost its namenode throws the very same exception object again:
            // try-with-resources would replace it with "self-suppression not permitted".
            if (failure == null) {
                failure = e;
            } else if (e != failure) {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
        if (isLocal(fs)) {
            force(fs, file);
        }
    }

    /** Writes {@code bytes} to {@code file} and makes them durable; the file's name is durable once its directory is synced. */
    public static void write(FileSystem fs, Path file, byte[] bytes, boolean overwrite) throws IOException {
        FSDataOutputStream out = fs.create(file, overwrite);
        try {
            out.write(bytes);
        } catch (IOException e) {
            syncAndClose(fs, file, out); // throws this failure or the close's
            throw e;
        }
        syncAndClose(fs, file, out);
    }

    /**
     * Creates {@code target} with {@code bytes} unless it exists, complete or not at all: a temp
     * file beside it, synced, is published by an operation that fails if the name is taken (a
     * rename on HDFS, atomic in the NameNode; a hard link on the local filesystem, where Hadoop's
     * rename would replace the target), then the directory is synced.
     *
     * @return false if the name was taken, by another writer's file or an earlier call's
     */
    public static boolean createOnce(FileSystem fs, Path target, byte[] bytes) throws IOException {
        Path temp = new Path(target.getParent(), "." + target.getName() + "." + UUID.randomUUID() + DatasetLayout.TEMP_SUFFIX);
        boolean created;
        try {
            write(fs, temp, bytes, false);
            created = publishExclusively(fs, temp, target);
            if (created) {
                syncDirectory(fs, target.getParent()); // the new name, before anyone acts on it
            }
        } catch (IOException | RuntimeException e) {
            try {
                fs.delete(temp, false);
            } catch (IOException cleanup) {
                // An HDFS client that lost its namenode can throw the very same exception object again, and
                // self-suppression would replace the I/O error the caller retries with an IllegalArgumentException.
                if (cleanup != e) {
                    e.addSuppressed(cleanup);
                }
            }
            throw e;
        }
        fs.delete(temp, false); // gone after a rename; the spare name after a link or a lost race
        return created;
    }

    private static boolean publishExclusively(FileSystem fs, Path temp, Path target) throws IOException {
        if (isLocal(fs)) {
            try {
                Files.createLink(Paths.get(fs.makeQualified(target).toUri()), Paths.get(fs.makeQualified(temp).toUri()));
                return true;
            } catch (FileAlreadyExistsException taken) {
                return false;
            }
        }
        if (fs.rename(temp, target)) {
            return true;
        }
        if (fs.exists(target)) {
            return false;
        }
        throw new IOException("could not rename " + temp + " to " + target);
    }

    /**
     * The whole of a file {@link #createOnce} made, or empty if there is no such file (any more): a file deleted
     * after the open (HDFS can then fail the read) counts as gone, not as an error.
     */
    public static Optional<byte[]> readIfPresent(FileSystem fs, Path file) throws IOException {
        try (FSDataInputStream in = fs.open(file)) {
            return Optional.of(in.readAllBytes());
        } catch (FileNotFoundException gone) {
            return Optional.empty();
        } catch (IOException e) {
            if (!fs.exists(file)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Makes the entries of {@code dir} (files created in or renamed into it) durable; a no-op on HDFS. */
    public static void syncDirectory(FileSystem fs, Path dir) throws IOException {
        if (isLocal(fs)) {
            force(fs, dir);
        }
    }

    private static boolean isLocal(FileSystem fs) {
        return "file".equals(fs.getUri().getScheme());
    }

    private static void force(FileSystem fs, Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(Paths.get(fs.makeQualified(path).toUri()), StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}

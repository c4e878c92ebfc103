package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

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

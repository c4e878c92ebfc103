package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

import java.io.IOException;

/**
 * A real filesystem that "crashes" at its n-th change (create, rename or delete): that change
 * does not happen (a create leaves an empty file behind, as a writer dying mid-write would), and
 * every call after it fails too, so no clean-up code can run — like a killed process. Later calls
 * throw the crash's exception object itself, as an HDFS client that lost its namenode can.
 */
final class CrashingFileSystem extends FilterFileSystem {
    private final int crashAt;
    private int changes;
    private IOException crash;

    CrashingFileSystem(FileSystem real, int crashAt) {
        super(real);
        this.crashAt = crashAt;
    }

    boolean crashed() {
        return crash != null;
    }

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
                                     short replication, long blockSize, Progressable progress) throws IOException {
        if (change()) {
            super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress).close();
            throw crash("create " + f);
        }
        return super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        if (change()) {
            throw crash("rename " + src);
        }
        return super.rename(src, dst);
    }

    @Override
    public boolean delete(Path f, boolean recursive) throws IOException {
        if (change()) {
            throw crash("delete " + f);
        }
        return super.delete(f, recursive);
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        alive();
        return super.open(f, bufferSize);
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
        alive();
        return super.listStatus(f);
    }

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
        alive();
        return super.getFileStatus(f);
    }

    /** True if this change is the one that crashes. */
    private boolean change() throws IOException {
        alive();
        return ++changes == crashAt;
    }

    private void alive() throws IOException {
        if (crash != null) {
            throw crash;
        }
    }

    private IOException crash(String what) {
        crash = new IOException("crash at change " + crashAt + ": " + what);
        return crash;
    }
}

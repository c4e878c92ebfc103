package io.tributary.sink;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A local directory behind the {@code powercut://<run>/} scheme, with HDFS's durability: a
 * namespace change (create, rename, delete) is durable when it returns, a file's bytes only up to
 * its last {@code hsync}. At its n-th step (a create, hsync, rename or delete) the power goes: that
 * step does not happen, every file written through it loses what was not synced, and every later
 * call fails, so no clean-up runs. Register with {@link #register}; a run's state is shared by
 * every instance Hadoop makes for its URI.
 */
public final class PowerCutFileSystem extends RawLocalFileSystem {
    private static final Map<String, Run> RUNS = new ConcurrentHashMap<>();

    private URI uri;
    private Run run;

    /** The state of one run: which step cuts, how far each file is synced. */
    static final class Run {
        private final int cutAt;
        private final Map<String, Long> synced = new HashMap<>(); // local path -> durable length
        private int steps;
        private IOException cut;

        Run(int cutAt) {
            this.cutAt = cutAt;
        }

        synchronized boolean wasCut() {
            return cut != null;
        }

        private synchronized void step(String what) throws IOException {
            alive();
            if (++steps == cutAt) {
                cutNow("step " + cutAt + ": " + what);
                throw cut;
            }
        }

        /** Cuts the power between two calls, as when an HDFS stream loses its pipeline on its own. */
        synchronized void cutNow(String when) throws IOException {
            cut = new IOException("power cut at " + when);
            for (Map.Entry<String, Long> file : synced.entrySet()) {
                java.io.File f = new java.io.File(file.getKey());
                if (f.exists()) {
                    try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
                        raf.setLength(Math.min(raf.length(), file.getValue()));
                    }
                }
            }
        }

        private synchronized void alive() throws IOException {
            if (cut != null) {
                throw cut;
            }
        }
    }

    /** Sets {@code conf} up for {@code powercut://<name>/} paths that cut at step {@code cutAt}. */
    static Run register(Configuration conf, String name, int cutAt) {
        conf.setClass("fs.powercut.impl", PowerCutFileSystem.class, org.apache.hadoop.fs.FileSystem.class);
        conf.setBoolean("fs.powercut.impl.disable.cache", true);
        Run run = new Run(cutAt);
        RUNS.put(name, run);
        return run;
    }

    static void unregister(String name) {
        RUNS.remove(name);
    }

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        uri = URI.create("powercut://" + name.getAuthority() + "/");
        run = RUNS.get(name.getAuthority());
        super.initialize(name, conf);
    }

    @Override
    public URI getUri() {
        return uri == null ? super.getUri() : uri; // the superclass constructor asks before initialize
    }

    @Override
    public String getScheme() {
        return "powercut";
    }

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize, short replication,
                                     long blockSize, Progressable progress) throws IOException {
        run.step("create " + f);
        return track(f, super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress));
    }

    @Override
    public FSDataOutputStream create(Path f, boolean overwrite, int bufferSize, short replication, long blockSize,
                                     Progressable progress) throws IOException {
        run.step("create " + f);
        return track(f, super.create(f, overwrite, bufferSize, replication, blockSize, progress));
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        run.step("rename " + src + " to " + dst);
        boolean renamed = super.rename(src, dst);
        if (renamed) {
            synchronized (run) {
                Long length = run.synced.remove(local(src));
                if (length != null) {
                    run.synced.put(local(dst), length);
                }
            }
        }
        return renamed;
    }

    @Override
    public boolean delete(Path p, boolean recursive) throws IOException {
        run.step("delete " + p);
        return super.delete(p, recursive);
    }

    @Override
    public org.apache.hadoop.fs.FSDataInputStream open(Path f, int bufferSize) throws IOException {
        run.alive();
        return super.open(f, bufferSize);
    }

    @Override
    public org.apache.hadoop.fs.FileStatus[] listStatus(Path f) throws IOException {
        run.alive();
        return super.listStatus(f);
    }

    @Override
    public org.apache.hadoop.fs.FileStatus getFileStatus(Path f) throws IOException {
        run.alive();
        return super.getFileStatus(f);
    }

    private String local(Path p) {
        return pathToFile(p).getAbsolutePath();
    }

    private FSDataOutputStream track(Path f, FSDataOutputStream real) {
        String file = local(f);
        synchronized (run) {
            run.synced.put(file, 0L);
        }
        return new FSDataOutputStream(new SyncTracking(file, real), null);
    }

    /** Counts the bytes written and records how many were synced. */
    private final class SyncTracking extends OutputStream implements Syncable {
        private final String file;
        private final FSDataOutputStream real;
        private long written;

        SyncTracking(String file, FSDataOutputStream real) {
            this.file = file;
            this.real = real;
        }

        // Like HDFS's client, which buffers a packet, a write after the cut is lost without a word:
        // the stream reports the failure when it flushes, syncs or closes.
        @Override
        public void write(int b) throws IOException {
            if (!run.wasCut()) {
                real.write(b);
                written++;
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (!run.wasCut()) {
                real.write(b, off, len);
                written += len;
            }
        }

        // Like HDFS's stream, one that has failed throws the same failure from every later call.
        @Override
        public void flush() throws IOException {
            run.alive();
            real.flush();
        }

        @Override
        public void hflush() throws IOException {
            flush();
        }

        @Override
        public void hsync() throws IOException {
            run.step("hsync " + file);
            real.flush();
            synchronized (run) {
                run.synced.put(file, written);
            }
        }

        @Override
        public void close() throws IOException {
            run.alive();
            real.close();
        }
    }
}

package io.tributary.examples;

import org.apache.hadoop.conf.Configuration;

import java.nio.file.Path;

/**
 * Hadoop settings for running MapReduce jobs in this JVM with the local job runner on the local
 * filesystem, the embedded stand-in for a YARN cluster and HDFS. Scratch space goes under
 * {@code workDir}, not /tmp.
 */
public final class LocalHadoop {
    private LocalHadoop() {
    }

    public static Configuration conf(Path workDir) {
        Path work = workDir.toAbsolutePath();
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        conf.set("fs.defaultFS", "file:///");
        conf.set("hadoop.tmp.dir", work.resolve("tmp").toString());
        // The local job runner ignores hadoop.tmp.dir for its staging area, and polls for completion
        // every 5 s unless told otherwise.
        conf.set("mapreduce.jobtracker.staging.root.dir", work.resolve("staging").toString());
        conf.set("mapreduce.client.completion.pollinterval", "100");
        return conf;
    }

    /** A local directory as a Hadoop path ({@code file:///...}). */
    public static org.apache.hadoop.fs.Path path(Path dir) {
        return new org.apache.hadoop.fs.Path(dir.toAbsolutePath().toUri());
    }
}

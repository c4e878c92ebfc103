package io.tributary.hadoop.testing;

import org.apache.hadoop.conf.Configuration;

import java.nio.file.Path;

/** Job configuration for Hadoop's local job runner on the local filesystem, tuned for tests. */
public final class LocalJobs {
    private LocalJobs() {
    }

    public static Configuration conf(Path work) {
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        conf.set("fs.defaultFS", "file:///");
        conf.set("hadoop.tmp.dir", work.resolve("hadoop-tmp").toString());
        // LocalJobRunner ignores hadoop.tmp.dir for staging, and polls every 5 s by default.
        conf.set("mapreduce.jobtracker.staging.root.dir", work.resolve("staging").toString());
        conf.set("mapreduce.client.completion.pollinterval", "100");
        return conf;
    }
}

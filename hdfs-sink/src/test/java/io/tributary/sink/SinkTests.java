package io.tributary.sink;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.OffsetLedger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** Settings and look-ups shared by the sink's integration tests. */
final class SinkTests {
    /** Where a partition the dataset has never seen resumes. */
    static final ResumePoint NEVER_WRITTEN = new ResumePoint(OptionalLong.empty(), 0, OptionalLong.empty());

    private SinkTests() {
    }

    /** Sink settings for one topic into {@code root}, with fast status snapshots and retries. */
    static Map<String, Object> props(String bootstrap, String topic, String group, Path root) {
        Map<String, Object> props = new HashMap<>();
        props.put(SinkConfig.BOOTSTRAP_SERVERS, bootstrap);
        props.put(SinkConfig.TOPICS, topic);
        props.put(SinkConfig.GROUP_ID, group);
        props.put(SinkConfig.OUTPUT_DIR, root.toString());
        props.put(SinkConfig.FLUSH_SIZE, "20000");
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "2000");
        props.put(SinkConfig.STATUS_INTERVAL_MS, "200");
        props.put(SinkConfig.RETRY_BACKOFF_MS, "100");
        props.put(SinkConfig.RETRY_BACKOFF_MAX_MS, "1000");
        props.put(SinkConfig.SINK_MEMORY_BYTES, String.valueOf(64L << 20));
        props.put(SinkConfig.CONSUMER_PREFIX + "session.timeout.ms", "6000");
        props.put(SinkConfig.CONSUMER_PREFIX + "heartbeat.interval.ms", "500");
        return props;
    }

    /** The local job runner (polled as the loader polls it by default), with its scratch directories under {@code dir}. */
    static Configuration localJobs(java.nio.file.Path dir) {
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
        conf.set("mapreduce.jobtracker.staging.root.dir", dir.resolve("staging").toString());
        return conf;
    }

    /** Arguments of bin/tributary-loader for {@code topic} into {@code root}, with its scratch directories under {@code dir}. */
    static List<String> loaderArgs(java.nio.file.Path dir, String bootstrap, String topic, Path root) {
        List<String> args = new ArrayList<>(List.of(
            "-D", "hadoop.tmp.dir=" + dir.resolve("hadoop-tmp"),
            "-D", "mapreduce.jobtracker.staging.root.dir=" + dir.resolve("staging")));
        args.addAll(List.of("--bootstrap-server", bootstrap, "--topic", topic, "--output", root.toString()));
        return args;
    }

    /** The ledger's next offsets of {@code topic}. */
    static Map<Integer, Long> ledger(Path root, String topic, Configuration conf) throws IOException {
        return OffsetLedger.open(DatasetLayout.utc(root), topic, conf).read().nextOffsets();
    }
}

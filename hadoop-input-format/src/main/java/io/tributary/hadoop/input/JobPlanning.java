package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.LedgerState;
import io.tributary.hadoop.dataset.NewestCommittedFiles;
import io.tributary.hadoop.dataset.OffsetLedger;
import io.tributary.hadoop.dataset.TopicIdentity;
import io.tributary.hadoop.tiered.ManifestStore;
import io.tributary.hadoop.tiered.TieredLayout;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The planning both input format APIs share: the job's {@link LoadPlan} (taken from
 * {@link InputConfig#PLAN} when already fixed, else planned now and stored there) cut into splits:
 * {@link TopicSplit}s through the brokers and, with {@link InputConfig#TIERED_STORAGE}, {@link TieredSplit}s
 * for the offsets tiered storage holds. Brokers that do not answer then leave a plan of the tiered parts alone.
 */
public final class JobPlanning {
    private static final Logger log = LoggerFactory.getLogger(JobPlanning.class);
    private static final int SIZE_SAMPLES_PER_PARTITION = 200;

    private JobPlanning() {
    }

    /**
     * The job's plan; planned against the broker (and the dataset ledger) if the configuration has
     * none yet. Planning from the ledger records the topic's id in the dataset if it has none
     * ({@link TopicIdentity}).
     */
    public static LoadPlan plan(Configuration conf) throws IOException {
        return plan(conf, true);
    }

    /** As {@link #plan}, for a dry run: it checks the dataset's topic id but records none. */
    public static LoadPlan preview(Configuration conf) throws IOException {
        return plan(conf, false);
    }

    private static LoadPlan plan(Configuration conf, boolean recordTopicId) throws IOException {
        String fixed = conf.get(InputConfig.PLAN);
        if (fixed != null) {
            return LoadPlan.decode(fixed);
        }
        InputConfig config = new InputConfig(conf);
        Map<String, Object> clientProps = config.consumerProps("tributary-planner");
        Optional<TieredTopic> tiered = config.tieredStorage().isEmpty() ? Optional.empty()
            : Optional.of(TieredTopic.read(conf, config.tieredStorage().get(), config.topic()));
        LoadPlan plan;
        try (Admin admin = Admin.create(InputConfig.adminProps(clientProps))) {
            plan = new RangePlanner(admin, topicId -> ledgerResume(conf, config, topicId, recordTopicId), config.isolationLevel(),
                tiered.map(TieredTopic::endOffsets).orElse(Map.of())).plan(config.topic(), config.start(), config.onMissing());
        } catch (BrokersUnreachableException e) {
            if (tiered.isEmpty()) {
                throw e;
            }
            log.warn("the brokers are unreachable ({}): planning what tiered storage holds", e.getMessage());
            plan = tiered.get().planWithoutBrokers(config.start(), topicId -> ledgerResume(conf, config, topicId, recordTopicId), config.onMissing());
        }
        if (config.splitLimits().maxBytes() > 0 && !plan.brokersUnreachable()) {
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(clientProps)) {
                plan = new RecordSizeSampler(consumer, SIZE_SAMPLES_PER_PARTITION).withAverages(plan);
            }
        }
        conf.set(InputConfig.PLAN, plan.encode());
        log.info("planned {} offsets of {} from {}: {}", plan.span(), plan.topic(), config.start(), plan.ranges());
        return plan;
    }

    /**
     * Offsets a next load would find: per planned partition, its end offset now (the last stable offset under
     * read_committed, the default) minus where {@code plan} ends, summed; empty if the brokers do not answer (a load
     * of what tiered storage holds, with the brokers down), which leaves the load done as it is.
     */
    public static OptionalLong lagAfter(LoadPlan plan, Configuration conf) {
        InputConfig config = new InputConfig(conf);
        List<TopicPartition> partitions = plan.partitions().stream()
            .map(p -> new TopicPartition(plan.topic(), p.range().partition())).toList();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config.consumerProps("tributary-lag"))) {
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            Map<Integer, Long> loaded = plan.endOffsets();
            return OptionalLong.of(ends.entrySet().stream()
                .mapToLong(e -> Math.max(0, e.getValue() - loaded.get(e.getKey().partition()))).sum());
        } catch (TimeoutException e) {
            log.warn("the brokers are unreachable ({}): the lag after this load is unknown", e.getMessage());
            return OptionalLong.empty();
        }
    }

    /** The plan cut into splits by the job's {@link SplitLimits}. */
    public static List<LoadSplit> splits(Configuration conf) throws IOException {
        InputConfig config = new InputConfig(conf);
        LoadPlan plan = plan(conf);
        List<LoadSplit> splits = new ArrayList<>(new SplitPlanner(config.splitLimits()).split(plan));
        if (plan.readsTiered()) {
            Path root = new Path(config.tieredStorage().orElseThrow(() -> new IllegalArgumentException(
                "the plan reads tiered segments but " + InputConfig.TIERED_STORAGE + " is not set")));
            FileSystem fs = root.getFileSystem(conf);
            ManifestStore store = new ManifestStore(fs, new TieredLayout(fs.makeQualified(root)));
            splits.addAll(new TieredSplitPlanner(store, fs, config.splitLimits(),
                config.isolationLevel() == IsolationLevel.READ_COMMITTED).split(plan));
        }
        log.info("{} splits", splits.size());
        return splits;
    }

    private static Map<Integer, Long> ledgerResume(Configuration conf, InputConfig config, Optional<String> topicId,
                                                   boolean recordTopicId) throws IOException {
        String dataset = conf.get(InputConfig.DATASET);
        if (dataset == null) {
            throw new IllegalArgumentException("the ledger start position needs " + InputConfig.DATASET + " (the output dataset)");
        }
        DatasetLayout layout = DatasetLayout.utc(new Path(dataset));
        String topic = config.topic();
        FileSystem fs = layout.root().getFileSystem(conf);
        LedgerState ledger = OffsetLedger.open(layout, topic, conf).read();
        if (topicId.isPresent() && recordTopicId) {
            TopicIdentity.checkAndRecord(fs, layout, topic, topicId.get(), ledger);
        } else if (topicId.isPresent()) {
            TopicIdentity.check(fs, layout, topic, topicId.get(), ledger);
        }
        return ledger.resumeOffsets(new NewestCommittedFiles(fs, layout, config.resumeCheckBuckets()).lastOffsets(topic));
    }
}

package io.tributary.consumer.cli;

import io.tributary.consumer.TestBroker;
import io.tributary.testkit.tributary.TransactionalTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code tributary consume} over a topic with committed, aborted and open transactions ({@link TransactionalTopic}). */
@Timeout(300)
class TransactionalCliIT {
    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @Test
    void consumePrintsCommittedRecordsOnlyUnlessAskedForEveryRecord() throws Exception {
        try (TransactionalTopic topic = TransactionalTopic.create(broker.bootstrapServers(), "txn-cli", 2, 50)) {
            CliRunner cli = new CliRunner(broker.bootstrapServers());
            Map<Integer, TreeSet<Long>> visible = topic.visible();
            CliRunner.Result committed = cli.run("consume", topic.topic(), "--from-beginning",
                "--max-messages", Long.toString(topic.visibleCount()), "--format", "{partition} {offset} {value}");
            assertThat(committed.exitCode()).as(committed.toString()).isZero();
            List<String> lines = committed.out().lines().toList();
            assertThat(lines).hasSize((int) topic.visibleCount()).noneMatch(l -> l.contains("aborted-") || l.contains("open-"));
            assertThat(lines).allSatisfy(line -> {
                String[] f = line.split(" ");
                assertThat(visible.get(Integer.parseInt(f[0]))).as(line).contains(Long.parseLong(f[1]));
            });

            CliRunner.Result everything = cli.run("consume", topic.topic(), "--from-beginning", "--isolation-level", "read_uncommitted",
                "--max-messages", Long.toString(topic.recordCount()));
            assertThat(everything.exitCode()).as(everything.toString()).isZero();
            assertThat(everything.out().lines()).hasSize((int) topic.recordCount()).anyMatch(v -> v.startsWith("aborted-"))
                .anyMatch(v -> v.startsWith("open-"));
        }
    }
}

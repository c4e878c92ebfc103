package io.tributary.broker.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.coordinator.InternalTopic;
import io.tributary.broker.log.AppendOrigin;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.testing.DumpLogSegmentsOutput;
import io.tributary.broker.testing.FakeTime;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.transaction.generated.TransactionLogValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The records of {@code __transaction_state} round-trip, load back as the latest state per id, and are Kafka's:
 * its DumpLogSegments {@code --transaction-log-decoder} decodes what we write (version 1, with its tagged fields);
 * version 0 values, as earlier releases wrote them, still read.
 */
@Timeout(60)
class TransactionRecordTest {
    @TempDir
    Path dir;

    private static final TransactionRecord ONGOING = new TransactionRecord("payments-1", 42, 41, -1, (short) 3, 60_000,
            TransactionState.ONGOING, Set.of(new TopicPartition("orders", 0), new TopicPartition("orders", 2),
            new TopicPartition("__consumer_offsets", 7)), 1_700_000_001_000L, 1_700_000_000_000L,
            TransactionRecord.EPOCH_BUMPING_VERSION);

    @Test
    void aRecordReadsBackAsWritten() {
        assertThat(TransactionRecord.readKey(ByteBuffer.wrap(ONGOING.key()))).isEqualTo("payments-1");
        assertThat(TransactionRecord.read("payments-1", ByteBuffer.wrap(ONGOING.value()))).isEqualTo(ONGOING);
    }

    /** What brokers of transaction version 0 wrote, before the flexible version 1: read with no rotation, version 0. */
    @Test
    void aVersionZeroValueStillReads() {
        byte[] old = MessageUtil.toVersionPrefixedBytes((short) 0, new TransactionLogValue().setProducerId(42)
                .setProducerEpoch((short) 3).setTransactionTimeoutMs(60_000).setTransactionStatus(TransactionState.COMPLETE_ABORT.id())
                .setTransactionPartitions(List.of()).setTransactionLastUpdateTimestampMs(7).setTransactionStartTimestampMs(5));
        assertThat(TransactionRecord.read("payments-1", ByteBuffer.wrap(old))).isEqualTo(new TransactionRecord("payments-1",
                42, (short) 3, 60_000, TransactionState.COMPLETE_ABORT, Set.of(), 7, 5));
    }

    @Test
    void kafkasTransactionLogDecoderReadsOurRecordsAndTheLatestStateLoads() throws Exception {
        FakeTime time = new FakeTime();
        LogManager logs = LogManager.open(List.of(dir), LogConfig.defaults(), time);
        PartitionLog log = logs.getOrCreate(new TopicPartition(TransactionStateStore.TOPIC, 0), LogConfig.defaults());
        TransactionStateStore store = new TransactionStateStore(InternalTopic.over(TransactionStateStore.TOPIC, List.of(log),
                (tp, records) -> {
                    log.appendAsLeader(records, 0, AppendOrigin.COORDINATOR);
                    return CompletableFuture.completedFuture(Errors.NONE);
                }), time);
        TransactionRecord committed = new TransactionRecord("payments-1", 42, (short) 3, 60_000,
                TransactionState.COMPLETE_COMMIT, Set.of(), 1_700_000_002_000L, 1_700_000_000_000L);
        assertThat(store.write(ONGOING).get()).isEqualTo(Errors.NONE);
        assertThat(store.write(committed).get()).isEqualTo(Errors.NONE);
        assertThat(store.load(0)).isEqualTo(Map.of("payments-1", committed));
        log.flush();
        Path segment = log.dir().resolve("00000000000000000000.log");
        logs.close();

        String output = DumpLogSegmentsOutput.of(segment, "--transaction-log-decoder");
        assertThat(output).contains("key: {\"type\":\"0\",\"data\":{\"transactionalId\":\"payments-1\"}}",
                "payload: {\"version\":\"1\",\"data\":{\"producerId\":42,\"previousProducerId\":41,\"producerEpoch\":3,\"transactionTimeoutMs\":60000,"
                        + "\"transactionStatus\":\"Ongoing\",\"transactionPartitions\":[{\"topic\":\"__consumer_offsets\","
                        + "\"partitionIds\":[7]},{\"topic\":\"orders\",\"partitionIds\":[0,2]}],"
                        + "\"transactionLastUpdateTimestampMs\":1700000001000,\"transactionStartTimestampMs\":1700000000000,"
                        + "\"clientTransactionVersion\":2}}",
                "\"transactionStatus\":\"CompleteCommit\",\"transactionPartitions\":[]").doesNotContain("Exception");
    }
}

package io.tributary.testkit.tributary;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A topic written the way transactional applications write one, for tests of what a
 * {@code read_committed} reader gets: in every partition, plain (non-transactional) records,
 * committed and aborted transactions interleaved, and one transaction left open (hanging) in all
 * partitions but the last, followed by more plain records and more committed and aborted
 * transactions. The log of each partition ends with an aborted transaction and its marker, so
 * its last offsets hold no record a reader may return. Every offset is known from the producers'
 * acknowledgements, so a test can say exactly which offsets a reader must see: {@link #visible()}
 * while the transaction is open, and again after {@link #commitOpenTransaction()}.
 *
 * <p>Values say what a record is ({@code plain-}, {@code committed-}, {@code aborted-},
 * {@code open-} and a running number), so a reader's output can be checked by eye too. Needs a
 * broker with transactions.
 */
public final class TransactionalTopic implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    /** Long enough that the broker never aborts the open transaction during a test. */
    private static final int OPEN_TRANSACTION_TIMEOUT_MS = 600_000;

    private final String bootstrapServers;
    private final String topic;
    private final int partitions;
    private final int perPartition;
    private final KafkaProducer<String, String> plain;
    private final KafkaProducer<String, String> transactions;
    private final KafkaProducer<String, String> hanging;
    /** One client for every offset look-up: the waits for markers ask many times, and a client per question took seconds on a loaded machine. */
    private final Admin admin;
    private final Map<Integer, TreeSet<Long>> committed = new TreeMap<>();
    private final Map<Integer, TreeSet<Long>> aborted = new TreeMap<>();
    private final Map<Integer, TreeSet<Long>> open = new TreeMap<>();
    private boolean openCommitted;
    private int sequence;

    private TransactionalTopic(String bootstrapServers, String topic, int partitions, int perPartition) {
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
        this.partitions = partitions;
        this.perPartition = perPartition;
        this.plain = new KafkaProducer<>(producerProps(null));
        this.transactions = new KafkaProducer<>(producerProps(topic + "-transactions"));
        this.hanging = new KafkaProducer<>(producerProps(topic + "-hanging"));
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
        for (int p = 0; p < partitions; p++) {
            committed.put(p, new TreeSet<>());
            aborted.put(p, new TreeSet<>());
            open.put(p, new TreeSet<>());
        }
    }

    /**
     * Creates {@code topic} with {@code partitions} partitions (at least two) and writes the
     * scenario into it: every batch puts {@code perPartition} records into each partition it covers.
     */
    public static TransactionalTopic create(String bootstrapServers, String topic, int partitions, int perPartition)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (partitions < 2) {
            throw new IllegalArgumentException("needs two partitions or more, one of them without the open transaction");
        }
        TransactionalTopic written = new TransactionalTopic(bootstrapServers, topic, partitions, perPartition);
        try {
            written.admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            written.writeScenario();
        } catch (InterruptedException | ExecutionException | TimeoutException | RuntimeException e) {
            written.close();
            throw e;
        }
        return written;
    }

    private void writeScenario() throws InterruptedException, ExecutionException, TimeoutException {
        awaitLeaders();
        transactions.initTransactions();
        hanging.initTransactions();
        sendPlain();
        transaction(true);
        transaction(false);
        sendPlain();
        transaction(true);
        transaction(false);
        hanging.beginTransaction();
        record(hanging, "open", partitions - 1, open); // left open: the last partition has none of it
        hanging.flush();
        sendPlain();
        transaction(true);
        transaction(false);
        awaitStableEnd(partitions - 1); // the markers are written when EndTxn returns, not when they are readable
    }

    private void sendPlain() throws InterruptedException, ExecutionException, TimeoutException {
        record(plain, "plain", partitions, committed);
    }

    private void transaction(boolean commit) throws InterruptedException, ExecutionException, TimeoutException {
        transactions.beginTransaction();
        record(transactions, commit ? "committed" : "aborted", partitions, commit ? committed : aborted);
        if (commit) {
            transactions.commitTransaction();
        } else {
            transactions.abortTransaction();
        }
    }

    /** Sends {@code perPartition} records to each of the first {@code partitionCount} partitions and notes their offsets in {@code into}. */
    private void record(KafkaProducer<String, String> producer, String kind, int partitionCount, Map<Integer, TreeSet<Long>> into)
            throws InterruptedException, ExecutionException, TimeoutException {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (int i = 0; i < perPartition; i++) {
            for (int p = 0; p < partitionCount; p++) {
                int n = sequence++;
                sent.add(producer.send(new ProducerRecord<>(topic, p, "k" + n, kind + "-" + n)));
            }
        }
        producer.flush();
        for (Future<RecordMetadata> future : sent) {
            RecordMetadata metadata = future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            into.get(metadata.partition()).add(metadata.offset());
        }
    }

    /** Commits the transaction left open; afterwards every partition's stable end is its log end. */
    public void commitOpenTransaction() throws InterruptedException, ExecutionException, TimeoutException {
        hanging.commitTransaction();
        openCommitted = true;
        for (int p = 0; p < partitions; p++) {
            awaitStableEnd(p);
        }
    }

    public String topic() {
        return topic;
    }

    public int partitions() {
        return partitions;
    }

    /**
     * The offsets a {@code read_committed} reader may return now, by partition: plain and
     * committed records below the last stable offset (the first offset of the open transaction),
     * all of them once it is committed.
     */
    public Map<Integer, TreeSet<Long>> visible() {
        Map<Integer, TreeSet<Long>> visible = new TreeMap<>();
        for (int p = 0; p < partitions; p++) {
            TreeSet<Long> offsets = new TreeSet<>(committed.get(p));
            if (openCommitted) {
                offsets.addAll(open.get(p));
            } else if (!open.get(p).isEmpty()) {
                offsets = new TreeSet<>(offsets.headSet(open.get(p).first()));
            }
            visible.put(p, offsets);
        }
        return visible;
    }

    /** How many offsets {@link #visible()} holds. */
    public long visibleCount() {
        return visible().values().stream().mapToLong(TreeSet::size).sum();
    }

    /** How many records were written: visible, aborted and open ones. */
    public long recordCount() {
        return sequence;
    }

    /** The offsets of aborted records, by partition: no reader may ever return them. */
    public Map<Integer, TreeSet<Long>> aborted() {
        return aborted;
    }

    /** The first offset of the open transaction in each partition it wrote to: where its last stable offset stops. */
    public Map<Integer, Long> openTransactionStarts() {
        Map<Integer, Long> starts = new TreeMap<>();
        open.forEach((p, offsets) -> {
            if (!offsets.isEmpty()) {
                starts.put(p, offsets.first());
            }
        });
        return starts;
    }

    /** The last stable offset of every partition, as ListOffsets answers a {@code read_committed} client. */
    public Map<Integer, Long> lastStableOffsets() throws InterruptedException, ExecutionException, TimeoutException {
        return listLatest(IsolationLevel.READ_COMMITTED);
    }

    /** The log end offset (high watermark) of every partition. */
    public Map<Integer, Long> logEndOffsets() throws InterruptedException, ExecutionException, TimeoutException {
        return listLatest(IsolationLevel.READ_UNCOMMITTED);
    }

    private Map<Integer, Long> listLatest(IsolationLevel isolation) throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        Map<Integer, Long> ends = new TreeMap<>();
        admin.listOffsets(request, new ListOffsetsOptions(isolation)).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
            .forEach((tp, info) -> ends.put(tp.partition(), info.offset()));
        return ends;
    }

    /** Waits until every partition answers ListOffsets: producing earlier sends idempotent producers into retries. */
    private void awaitLeaders() throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        Throwable notYet = null;
        while (System.nanoTime() < deadline) {
            try {
                if (logEndOffsets().size() == partitions) {
                    return;
                }
            } catch (ExecutionException e) {
                notYet = e.getCause();
            }
            Thread.sleep(50);
        }
        throw new TimeoutException(topic + " has partitions without a leader after " + TIMEOUT + ": " + notYet);
    }

    /** Waits until the partition's last stable offset is its log end (the markers of its ended transactions are written). */
    private void awaitStableEnd(int partition) throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!lastStableOffsets().get(partition).equals(logEndOffsets().get(partition))) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException(topic + "-" + partition + " has no stable end after " + TIMEOUT);
            }
            Thread.sleep(20);
        }
    }

    private Map<String, Object> producerProps(String transactionalId) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) TIMEOUT.toMillis());
        if (transactionalId != null) {
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
            props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, OPEN_TRANSACTION_TIMEOUT_MS);
        }
        return props;
    }

    @Override
    public void close() {
        plain.close(Duration.ofSeconds(10));
        transactions.close(Duration.ofSeconds(10));
        hanging.close(Duration.ofSeconds(10));
        admin.close(Duration.ofSeconds(10));
    }
}

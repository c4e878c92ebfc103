package io.tributary.broker.txn;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import io.tributary.broker.controller.ClusterView;
import io.tributary.broker.coordinator.CoordinatedPartitions;
import io.tributary.broker.coordinator.CoordinatorLoader;
import io.tributary.broker.replica.BrokerConnector;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;

/**
 * The transaction coordinator over the {@code __transaction_state} partitions this broker leads, with the thread
 * that sends markers and a timer that aborts timed-out transactions every
 * {@code transaction.abort.timed.out.transaction.cleanup.interval.ms} and forgets ids idle for
 * {@code transactional.id.expiration.ms} every {@code transaction.remove.expired.transaction.cleanup.interval.ms}. Coordination follows leadership through a
 * {@link CoordinatorLoader}: a partition's transactional ids are read from its log when this broker starts to
 * lead it (and its decided transactions completed), and dropped when it stops.
 */
public final class TransactionServices implements AutoCloseable {
    private final TransactionCoordinator coordinator;
    private final TransactionStateStore store;
    private final MarkerSender markers;
    private final CoordinatorLoader loader;
    private final ScheduledExecutorService timer;
    private final TransactionVerifier verifier;

    /** How the coordinator reaches the leaders of a transaction's partitions. */
    public record MarkerRoutes(int localId, MarkerAppender local, Function<TopicPartition, OptionalInt> leaders,
                               IntFunction<Optional<ClusterView.Endpoint>> brokers, BrokerConnector connector) {
    }

    private TransactionServices(TransactionCoordinator coordinator, TransactionStateStore store, MarkerSender markers,
                                CoordinatedPartitions partitions, ScheduledExecutorService timer, MarkerRoutes routes) {
        this.coordinator = coordinator;
        this.verifier = new TransactionVerifier(routes.localId(), coordinator, store::partitionFor, routes.leaders(),
                routes.brokers(), routes.connector());
        this.store = store;
        this.markers = markers;
        this.timer = timer;
        this.loader = new CoordinatorLoader("tributary-txn-loader", partitions, new CoordinatorLoader.PartitionStates() {
            @Override
            public void load(int partition, int leaderEpoch) {
                coordinator.load(partition, leaderEpoch);
                coordinator.completeDecided(partition);
            }

            @Override
            public void unload(int partition) {
                coordinator.unload(partition);
            }
        });
    }

    public static TransactionServices start(TransactionConfig config, TransactionStateStore store, LongSupplier newProducerId,
                                            MarkerRoutes routes, Time time) {
        CoordinatedPartitions partitions = new CoordinatedPartitions(store::partitionFor, "transactional id");
        MarkerSender markers = new MarkerSender(routes.localId(), routes.leaders(), routes.local(),
                new WriteTxnMarkersClient(routes.brokers(), routes.connector(), routes.localId()));
        TransactionCoordinator coordinator = new TransactionCoordinator(config, store, partitions, newProducerId, markers, time);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(CoordinatorLoader.daemon("tributary-txn-timer"));
        timer.scheduleWithFixedDelay(CoordinatorLoader.guarded("transaction timeouts", coordinator::abortTimedOut),
                config.abortTimedOutIntervalMs(), config.abortTimedOutIntervalMs(), TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(CoordinatorLoader.guarded("transactional id expiry", coordinator::expireIdle),
                config.removeExpiredIntervalMs(), config.removeExpiredIntervalMs(), TimeUnit.MILLISECONDS);
        return new TransactionServices(coordinator, store, markers, partitions, timer, routes);
    }

    public TransactionCoordinator coordinator() {
        return coordinator;
    }

    /** Asks coordinators whether a partition is in a producer's transaction (KIP-890), for the produce path. */
    public TransactionVerifier verifier() {
        return verifier;
    }

    /** This broker leads {@code partition} of {@code __transaction_state} at {@code leaderEpoch}. Returns at once. */
    public void becameLeader(int partition, int leaderEpoch) {
        loader.becameLeader(partition, leaderEpoch);
    }

    public void resigned(int partition) {
        loader.resigned(partition);
    }

    /** Creates {@code __transaction_state} if it does not exist yet (on the first FindCoordinator for a transaction). */
    public void ensureStateTopic() {
        store.ensureTopic();
    }

    public int partitionFor(String transactionalId) {
        return store.partitionFor(transactionalId);
    }

    @Override
    public void close() {
        timer.shutdownNow();
        loader.close();
        markers.close();
        verifier.close();
    }
}

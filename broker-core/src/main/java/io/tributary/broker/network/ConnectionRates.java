package io.tributary.broker.network;

import java.net.InetAddress;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.network.ListenerName;

/**
 * Connection creation rates (KIP-612), which the acceptor asks about each new connection before it takes it:
 * {@code max.connection.creation.rate} broker-wide and per listener, and {@code connection_creation_rate} per client
 * address (the {@code ip} quota entity). A connection {@code exempt} from them (a broker's: asked only when a rate is
 * exceeded, since it may cost a lookup) is taken at once and counted. The policy and its measuring live in
 * {@code io.tributary.broker.quota}. Thread-safe.
 */
public interface ConnectionRates {
    /** No rate is limited. */
    ConnectionRates UNLIMITED = new ConnectionRates() {
        @Override
        public long recordAndGetAcceptDelayMs(ListenerName listener, BooleanSupplier exempt, long nowMs) {
            return 0;
        }

        @Override
        public long recordAndGetIpThrottleMs(ListenerName listener, InetAddress address, BooleanSupplier exempt, long nowMs) {
            return 0;
        }
    };

    /**
     * Counts a new connection on {@code listener} against the broker-wide and the listener's rates.
     *
     * @return how long the acceptor waits before taking it, accepting nothing else on the listener meanwhile (0: now)
     */
    long recordAndGetAcceptDelayMs(ListenerName listener, BooleanSupplier exempt, long nowMs);

    /**
     * Counts a new connection from {@code address} against its address's rate; one over it is counted nowhere (the
     * broker-wide and listener counts are taken back too).
     *
     * @return how long to hold the connection before closing it unanswered (0: take it)
     */
    long recordAndGetIpThrottleMs(ListenerName listener, InetAddress address, BooleanSupplier exempt, long nowMs);
}

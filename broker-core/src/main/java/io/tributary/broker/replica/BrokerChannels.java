package io.tributary.broker.replica;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import io.tributary.broker.controller.ClusterView;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;

/**
 * One blocking connection per broker over the inter-broker listener, made on first use and again after a failure.
 * Used by one thread at a time.
 */
public final class BrokerChannels implements AutoCloseable {
    private static final int DEFAULT_TIMEOUT_MS = 30_000;

    private final IntFunction<Optional<ClusterView.Endpoint>> brokers;
    private final BrokerConnector connector;
    private final String clientId;
    private final int timeoutMs;
    private final Map<Integer, BrokerChannel> channels = new HashMap<>();

    public BrokerChannels(IntFunction<Optional<ClusterView.Endpoint>> brokers, BrokerConnector connector, String clientId) {
        this(brokers, connector, clientId, DEFAULT_TIMEOUT_MS);
    }

    /** @param timeoutMs how long a connection or a response may take before the call fails */
    public BrokerChannels(IntFunction<Optional<ClusterView.Endpoint>> brokers, BrokerConnector connector, String clientId,
                          int timeoutMs) {
        this.brokers = brokers;
        this.connector = connector;
        this.clientId = clientId;
        this.timeoutMs = timeoutMs;
    }

    /** Sends {@code request} to {@code brokerId} and returns its response; a failed connection is dropped. */
    public ApiMessage send(int brokerId, ApiKeys api, short version, ApiMessage request) throws IOException {
        BrokerChannel channel = channel(brokerId);
        try {
            return channel.send(api, version, request);
        } catch (IOException | RuntimeException e) {
            drop(brokerId);
            throw e instanceof IOException io ? io : new IOException(e);
        }
    }

    private BrokerChannel channel(int brokerId) throws IOException {
        BrokerChannel channel = channels.get(brokerId);
        if (channel == null) {
            ClusterView.Endpoint endpoint = brokers.apply(brokerId)
                    .orElseThrow(() -> new IOException("broker " + brokerId + " is not registered"));
            channel = BrokerChannel.connect(endpoint.host(), endpoint.port(), timeoutMs, clientId, connector);
            channels.put(brokerId, channel);
        }
        return channel;
    }

    private void drop(int brokerId) {
        BrokerChannel channel = channels.remove(brokerId);
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // a connection that failed already
            }
        }
    }

    @Override
    public void close() {
        List.copyOf(channels.keySet()).forEach(this::drop);
    }
}

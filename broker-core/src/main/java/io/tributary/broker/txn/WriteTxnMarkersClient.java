package io.tributary.broker.txn;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;
import io.tributary.broker.controller.ClusterView;
import io.tributary.broker.replica.BrokerChannel;
import io.tributary.broker.replica.BrokerConnector;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData.WritableTxnMarker;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData.WritableTxnMarkerTopic;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;

/**
 * Sends WriteTxnMarkers to other brokers over the inter-broker listener (one blocking connection per broker, made
 * again after a failure). Used by the marker thread only.
 */
final class WriteTxnMarkersClient implements MarkerSender.RemoteBrokers {
    static final short VERSION = 1;
    private static final int TIMEOUT_MS = 30_000;

    private final IntFunction<Optional<ClusterView.Endpoint>> brokers;
    private final BrokerConnector connector;
    private final String clientId;
    private final Map<Integer, BrokerChannel> channels = new HashMap<>();

    WriteTxnMarkersClient(IntFunction<Optional<ClusterView.Endpoint>> brokers, BrokerConnector connector, int localId) {
        this.brokers = brokers;
        this.connector = connector;
        this.clientId = "txn-markers-" + localId;
    }

    @Override
    public Map<TopicPartition, Errors> send(int brokerId, TxnMarker marker, Set<TopicPartition> partitions) throws IOException {
        Map<String, List<Integer>> byTopic = new HashMap<>();
        partitions.forEach(tp -> byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition()));
        List<WritableTxnMarkerTopic> topics = new ArrayList<>();
        byTopic.forEach((topic, ids) -> topics.add(new WritableTxnMarkerTopic().setName(topic).setPartitionIndexes(ids)));
        WriteTxnMarkersRequestData request = new WriteTxnMarkersRequestData().setMarkers(List.of(new WritableTxnMarker()
                .setProducerId(marker.producerId()).setProducerEpoch(marker.producerEpoch())
                .setTransactionResult(marker.commit()).setCoordinatorEpoch(marker.coordinatorEpoch()).setTopics(topics)));
        BrokerChannel channel = channel(brokerId);
        WriteTxnMarkersResponseData response;
        try {
            response = (WriteTxnMarkersResponseData) channel.send(ApiKeys.WRITE_TXN_MARKERS, VERSION, request);
        } catch (IOException | RuntimeException e) {
            drop(brokerId);
            throw e instanceof IOException io ? io : new IOException(e);
        }
        Map<TopicPartition, Errors> results = new HashMap<>();
        response.markers().forEach(result -> result.topics().forEach(topic -> topic.partitions().forEach(p ->
                results.put(new TopicPartition(topic.name(), p.partitionIndex()), Errors.forCode(p.errorCode())))));
        return results;
    }

    private BrokerChannel channel(int brokerId) throws IOException {
        BrokerChannel channel = channels.get(brokerId);
        if (channel == null) {
            ClusterView.Endpoint endpoint = brokers.apply(brokerId)
                    .orElseThrow(() -> new IOException("broker " + brokerId + " is not registered"));
            channel = BrokerChannel.connect(endpoint.host(), endpoint.port(), TIMEOUT_MS, clientId, connector);
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

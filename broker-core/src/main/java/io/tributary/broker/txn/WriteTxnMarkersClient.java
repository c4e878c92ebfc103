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
import io.tributary.broker.replica.BrokerChannels;
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

    private final BrokerChannels channels;

    WriteTxnMarkersClient(IntFunction<Optional<ClusterView.Endpoint>> brokers, BrokerConnector connector, int localId) {
        this.channels = new BrokerChannels(brokers, connector, "txn-markers-" + localId);
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
        WriteTxnMarkersResponseData response = (WriteTxnMarkersResponseData) channels.send(brokerId,
                ApiKeys.WRITE_TXN_MARKERS, VERSION, request);
        Map<TopicPartition, Errors> results = new HashMap<>();
        response.markers().forEach(result -> result.topics().forEach(topic -> topic.partitions().forEach(p ->
                results.put(new TopicPartition(topic.name(), p.partitionIndex()), Errors.forCode(p.errorCode())))));
        return results;
    }

    @Override
    public void close() {
        channels.close();
    }
}

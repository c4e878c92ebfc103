package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.txn.MarkerAppender;
import io.tributary.broker.txn.TxnMarker;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData.WritableTxnMarker;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData.WritableTxnMarkerTopic;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData.WritableTxnMarkerPartitionResult;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData.WritableTxnMarkerResult;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData.WritableTxnMarkerTopicResult;

/**
 * WriteTxnMarkers, from a transaction coordinator to the leaders of a transaction's partitions: each marker is
 * appended as an acks=-1 write; the response lists every partition's error once all are replicated or failed.
 */
final class TxnMarkersHandler {
    private final MarkerAppender markers;

    TxnMarkersHandler(MarkerAppender markers) {
        this.markers = markers;
    }

    CompletableFuture<WriteTxnMarkersResponseData> handle(WriteTxnMarkersRequestData request) {
        List<CompletableFuture<?>> pending = new ArrayList<>();
        WriteTxnMarkersResponseData response = new WriteTxnMarkersResponseData();
        for (WritableTxnMarker requested : request.markers()) {
            TxnMarker marker = new TxnMarker(requested.producerId(), requested.producerEpoch(),
                    requested.transactionResult(), requested.coordinatorEpoch());
            WritableTxnMarkerResult result = new WritableTxnMarkerResult().setProducerId(requested.producerId());
            for (WritableTxnMarkerTopic topic : requested.topics()) {
                WritableTxnMarkerTopicResult topicResult = new WritableTxnMarkerTopicResult().setName(topic.name());
                for (int index : topic.partitionIndexes()) {
                    WritableTxnMarkerPartitionResult partition = new WritableTxnMarkerPartitionResult().setPartitionIndex(index);
                    topicResult.partitions().add(partition);
                    pending.add(markers.append(new TopicPartition(topic.name(), index), marker)
                            .thenAccept(error -> partition.setErrorCode(error.code())));
                }
                result.topics().add(topicResult);
            }
            response.markers().add(result);
        }
        return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).thenApply(done -> response);
    }
}

package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.List;
import io.tributary.broker.api.TopicLookup.Found;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.purgatory.Purgatory;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceRequestData.PartitionProduceData;
import org.apache.kafka.common.message.ProduceRequestData.TopicProduceData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.ProduceResponseData.PartitionProduceResponse;
import org.apache.kafka.common.message.ProduceResponseData.TopicProduceResponse;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.requests.ProduceRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Produce: validates and appends each partition's batches as received, then wakes fetches
 * waiting on that partition. On one broker acks=1 and acks=-1 mean the same; acks=0 gets no
 * response at all. A partition's error never affects the others in the request.
 */
final class ProduceHandler {
    private static final Logger log = LoggerFactory.getLogger(ProduceHandler.class);
    private static final short FIRST_VERSION_BY_TOPIC_ID = 13;

    private final TopicManager topics;
    private final TopicLookup lookup;
    private final IdempotentAppender appender;
    private final Purgatory<TopicPartition> fetchWaiters;

    ProduceHandler(TopicManager topics, IdempotentAppender appender, Purgatory<TopicPartition> fetchWaiters) {
        this.topics = topics;
        this.lookup = new TopicLookup(topics);
        this.appender = appender;
        this.fetchWaiters = fetchWaiters;
    }

    /** @return the response, or null for acks=0 */
    ProduceResponseData handle(ProduceRequestData request, short version) {
        boolean byId = version >= FIRST_VERSION_BY_TOPIC_ID;
        Errors requestError = requestError(request);
        ProduceResponseData response = new ProduceResponseData();
        for (TopicProduceData topicData : request.topicData()) {
            Found found = lookup.find(topicData.name(), topicData.topicId(), byId);
            List<PartitionProduceResponse> partitions = new ArrayList<>();
            for (PartitionProduceData partitionData : topicData.partitionData()) {
                PartitionProduceResponse result = requestError != Errors.NONE || found.topic().isEmpty()
                        ? error(partitionData.index(), requestError != Errors.NONE ? requestError : found.error(), null)
                        : append(found.topic().get().name(), partitionData, version);
                partitions.add(result);
            }
            response.responses().add(new TopicProduceResponse()
                    .setName(byId ? "" : topicData.name())
                    .setTopicId(topicData.topicId())
                    .setPartitionResponses(partitions));
        }
        return request.acks() == 0 ? null : response;
    }

    private static Errors requestError(ProduceRequestData request) {
        short acks = request.acks();
        if (acks != 0 && acks != 1 && acks != -1) {
            return Errors.INVALID_REQUIRED_ACKS;
        }
        if (request.transactionalId() != null) {
            return Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED; // transactions are not implemented
        }
        return Errors.NONE;
    }

    private PartitionProduceResponse append(String topic, PartitionProduceData data, short version) {
        TopicPartition partition = new TopicPartition(topic, data.index());
        PartitionLog partitionLog = topics.log(partition).orElse(null);
        if (partitionLog == null) {
            return error(data.index(), Errors.UNKNOWN_TOPIC_OR_PARTITION, null);
        }
        try {
            ProduceRequest.validateRecords(version, data.records());
            LogAppendInfo info = appender.append(partitionLog, (MemoryRecords) data.records());
            fetchWaiters.checkAndComplete(partition);
            return new PartitionProduceResponse()
                    .setIndex(data.index())
                    .setBaseOffset(info.firstOffset())
                    .setLogAppendTimeMs(info.logAppendTime())
                    .setLogStartOffset(partitionLog.logStartOffset());
        } catch (RuntimeException e) {
            Errors error = Errors.forException(e);
            if (error == Errors.UNKNOWN_SERVER_ERROR) {
                log.error("append to {} failed", partition, e);
            } else {
                log.debug("append to {} rejected: {}", partition, e.getMessage());
            }
            return error(data.index(), error, e.getMessage());
        }
    }

    private static PartitionProduceResponse error(int partition, Errors error, String message) {
        return new PartitionProduceResponse()
                .setIndex(partition)
                .setErrorCode(error.code())
                .setErrorMessage(message)
                .setBaseOffset(-1)
                .setLogAppendTimeMs(-1)
                .setLogStartOffset(-1);
    }
}

package io.tributary.broker.api;

import io.tributary.broker.cluster.ProducerIdManager;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * InitProducerId for idempotent producers: a fresh producer id at epoch 0, or, for a producer that
 * names its current id and epoch (after a sequence error), the same id at the next epoch. Requests
 * with a transactional id go to the transaction coordinator ({@link TransactionHandler}).
 */
final class ProducerIdHandler {
    private final ProducerIdManager ids;

    ProducerIdHandler(ProducerIdManager ids) {
        this.ids = ids;
    }

    InitProducerIdResponseData handle(InitProducerIdRequestData request) {
        InitProducerIdResponseData response = new InitProducerIdResponseData();
        if (request.enable2Pc()) {
            return response.setErrorCode(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code())
                    .setProducerId(RecordBatch.NO_PRODUCER_ID).setProducerEpoch(RecordBatch.NO_PRODUCER_EPOCH);
        }
        boolean bump = request.producerId() != RecordBatch.NO_PRODUCER_ID
                && request.producerEpoch() != RecordBatch.NO_PRODUCER_EPOCH
                && request.producerEpoch() < Short.MAX_VALUE - 1;
        if (bump) {
            return response.setProducerId(request.producerId()).setProducerEpoch((short) (request.producerEpoch() + 1));
        }
        return response.setProducerId(ids.nextId()).setProducerEpoch((short) 0);
    }
}

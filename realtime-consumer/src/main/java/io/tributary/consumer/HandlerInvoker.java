package io.tributary.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.util.List;

/**
 * Deserializes records of one partition and calls the user's handler on them. Per-record handlers
 * take units of one record, batch handlers a unit of several.
 */
interface HandlerInvoker extends AutoCloseable {
    /** True if units are single records, false if a whole chunk forms one unit (batch handler). */
    boolean perRecord();

    /** Deserializes and handles one unit; any exception means the unit failed. */
    void invoke(List<ConsumerRecord<byte[], byte[]>> unit) throws Exception;

    /** Closes the deserializers. */
    @Override
    void close();
}

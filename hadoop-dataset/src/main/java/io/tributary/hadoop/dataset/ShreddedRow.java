package io.tributary.hadoop.dataset;

import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * One dataset row already taken apart into Parquet's column events (the calls parquet-avro made
 * on a {@link RecordConsumer} for it), so that another thread can write it by replaying them:
 * see {@link RowShredder}, which makes it, and {@link ShreddedRowWriteSupport}, which writes it.
 * Immutable once made; it shares the row's byte arrays.
 */
public final class ShreddedRow {
    // The events, in order; each takes its operands from the next slots of numbers and refs.
    static final byte START_MESSAGE = 0;
    static final byte END_MESSAGE = 1;
    static final byte START_FIELD = 2; // refs: field name; numbers: field index
    static final byte END_FIELD = 3; // as START_FIELD
    static final byte START_GROUP = 4;
    static final byte END_GROUP = 5;
    static final byte INTEGER = 6; // numbers: the value
    static final byte LONG = 7; // numbers: the value
    static final byte BOOLEAN = 8; // numbers: 1 or 0
    static final byte FLOAT = 9; // numbers: the raw int bits
    static final byte DOUBLE = 10; // numbers: the raw long bits
    static final byte BINARY = 11; // refs: the Binary

    private final byte[] events;
    private final long[] numbers;
    private final Object[] refs;

    ShreddedRow(byte[] events, long[] numbers, Object[] refs) {
        this.events = events;
        this.numbers = numbers;
        this.refs = refs;
    }

    /** Makes on {@code consumer} the calls this row was made of. */
    public void replayTo(RecordConsumer consumer) {
        int number = 0;
        int ref = 0;
        for (byte event : events) {
            switch (event) {
                case START_MESSAGE -> consumer.startMessage();
                case END_MESSAGE -> consumer.endMessage();
                case START_FIELD -> consumer.startField((String) refs[ref++], (int) numbers[number++]);
                case END_FIELD -> consumer.endField((String) refs[ref++], (int) numbers[number++]);
                case START_GROUP -> consumer.startGroup();
                case END_GROUP -> consumer.endGroup();
                case INTEGER -> consumer.addInteger((int) numbers[number++]);
                case LONG -> consumer.addLong(numbers[number++]);
                case BOOLEAN -> consumer.addBoolean(numbers[number++] != 0);
                case FLOAT -> consumer.addFloat(Float.intBitsToFloat((int) numbers[number++]));
                case DOUBLE -> consumer.addDouble(Double.longBitsToDouble(numbers[number++]));
                case BINARY -> consumer.addBinary((Binary) refs[ref++]);
                default -> throw new IllegalStateException("unknown event " + event);
            }
        }
    }
}

package io.tributary.hadoop.dataset;

import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroWriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

import java.util.Arrays;

/**
 * Takes dataset rows apart into {@link ShreddedRow}s with parquet-avro's own {@link AvroWriteSupport},
 * configured as the files' writer is ({@link ParquetWriterFactory#shredder}), so that a file written
 * from the shredded rows is the file parquet-avro would write from the rows. This is the part of
 * writing Parquet that needs the Avro objects; it can run on another thread than the column
 * encoding. Not thread-safe: one per thread.
 */
public final class RowShredder {
    private final AvroWriteSupport<GenericRecord> avro;
    private final Recorder recorder = new Recorder();

    RowShredder(AvroWriteSupport<GenericRecord> initializedAvro) {
        this.avro = initializedAvro;
        avro.prepareForWrite(recorder);
    }

    /**
     * The column events of {@code row}. The row's objects (records, lists, maps) may be refilled
     * afterwards; the values it holds (byte arrays, {@code Utf8}s, {@code ByteBuffer}s, fixeds)
     * must not change, since the shredded row points into them.
     */
    public ShreddedRow shred(GenericRecord row) {
        recorder.clear();
        avro.write(row);
        return recorder.row();
    }

    /** As {@link #shred(GenericRecord)} for the row of one record: a failure names the record. */
    public ShreddedRow shred(GenericRecord row, String topic, int partition, long offset) {
        try {
            return shred(row);
        } catch (RuntimeException e) {
            throw new UnwritableRowException(topic, partition, offset, e);
        }
    }

    /** Records the calls parquet-avro makes, to be replayed by {@link ShreddedRow#replayTo}. */
    private static final class Recorder extends RecordConsumer {
        private byte[] events = new byte[64];
        private long[] numbers = new long[32];
        private Object[] refs = new Object[32];
        private int eventCount;
        private int numberCount;
        private int refCount;

        void clear() {
            eventCount = 0;
            numberCount = 0;
            refCount = 0;
        }

        ShreddedRow row() {
            ShreddedRow row = new ShreddedRow(Arrays.copyOf(events, eventCount), Arrays.copyOf(numbers, numberCount), Arrays.copyOf(refs, refCount));
            Arrays.fill(refs, 0, refCount, null); // the recorder does not keep the row's values alive
            return row;
        }

        private void event(byte event) {
            if (eventCount == events.length) {
                events = Arrays.copyOf(events, eventCount * 2);
            }
            events[eventCount++] = event;
        }

        private void number(long value) {
            if (numberCount == numbers.length) {
                numbers = Arrays.copyOf(numbers, numberCount * 2);
            }
            numbers[numberCount++] = value;
        }

        private void ref(Object value) {
            if (refCount == refs.length) {
                refs = Arrays.copyOf(refs, refCount * 2);
            }
            refs[refCount++] = value;
        }

        @Override
        public void startMessage() {
            event(ShreddedRow.START_MESSAGE);
        }

        @Override
        public void endMessage() {
            event(ShreddedRow.END_MESSAGE);
        }

        @Override
        public void startField(String field, int index) {
            fieldEvent(ShreddedRow.START_FIELD, field, index);
        }

        @Override
        public void endField(String field, int index) {
            fieldEvent(ShreddedRow.END_FIELD, field, index);
        }

        @Override
        public void startGroup() {
            event(ShreddedRow.START_GROUP);
        }

        @Override
        public void endGroup() {
            event(ShreddedRow.END_GROUP);
        }

        @Override
        public void addInteger(int value) {
            valueEvent(ShreddedRow.INTEGER, value);
        }

        @Override
        public void addLong(long value) {
            valueEvent(ShreddedRow.LONG, value);
        }

        @Override
        public void addBoolean(boolean value) {
            valueEvent(ShreddedRow.BOOLEAN, value ? 1 : 0);
        }

        @Override
        public void addFloat(float value) {
            valueEvent(ShreddedRow.FLOAT, Float.floatToRawIntBits(value));
        }

        @Override
        public void addDouble(double value) {
            valueEvent(ShreddedRow.DOUBLE, Double.doubleToRawLongBits(value));
        }

        @Override
        public void addBinary(Binary value) {
            event(ShreddedRow.BINARY);
            ref(value);
        }

        private void fieldEvent(byte event, String field, int index) {
            event(event);
            ref(field);
            number(index);
        }

        private void valueEvent(byte event, long value) {
            event(event);
            number(value);
        }
    }
}

package io.tributary.sink;

/**
 * The heap an open Parquet file holds, as the memory budget counts it: a fixed part (the
 * writer's page, level and compressor buffers, about four pages before the first record) plus
 * the data it reports buffered, plus the slack of Parquet's growing buffers around that data
 * (measured at about 7% with parquet-avro 1.18: {@code OpenFileMemoryTest}). It holds only for
 * writers without dictionaries on columns of many values, whose dictionaries Parquet does not
 * report at all (see {@code SinkFactory}).
 */
record OpenFileCost(long fixedBytes) {
    static OpenFileCost forPageBytes(int pageBytes) {
        return new OpenFileCost(4L * pageBytes);
    }

    long bytes(long dataBytes) {
        return fixedBytes + dataBytes + dataBytes / 8;
    }
}

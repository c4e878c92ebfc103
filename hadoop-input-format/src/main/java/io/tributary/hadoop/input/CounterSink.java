package io.tributary.hadoop.input;

/** Hadoop counters of either API: {@code TaskAttemptContext} (mapreduce) or {@code Reporter} (mapred). */
interface CounterSink {
    void increment(Enum<?> counter, long amount);

    void increment(String group, String name, long amount);
}

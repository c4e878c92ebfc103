package io.tributary.hadoop.loader;

/** Counters of the dataset output, counted by committed task attempts only. */
public enum LoaderCounter {
    FILES_WRITTEN,
    ROWS_WRITTEN,
    /** Bytes of the Parquet files written. */
    BYTES_WRITTEN
}

package io.tributary.broker.log;

/** An offset index entry: a batch whose last offset is {@code offset} starts at byte {@code position}. */
record OffsetPosition(long offset, int position) {
}

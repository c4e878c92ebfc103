package io.tributary.chaos.check;

/** A record as the cluster serves it after the faults: its offset and payload. */
public record StoredRecord(long offset, String payload) {
}

package io.tributary.broker.group;

/**
 * A committed position of one group in one partition.
 *
 * @param leaderEpoch       -1 if the client did not send one
 * @param metadata          the client's string, may be null
 * @param commitTimestampMs broker time of the commit; drives offsets.retention.minutes
 */
public record CommittedOffset(long offset, int leaderEpoch, String metadata, long commitTimestampMs) {
}

package io.tributary.broker.log.cleaner;

/**
 * What one clean of a log did.
 *
 * @param cleanedUpToOffset        every closed segment below this offset was cleaned (the first dirty offset from now on)
 * @param bytesRead                size of the segments before cleaning
 * @param bytesWritten             size of the segments that replaced them
 * @param earliestTombstoneHorizonMs when the earliest tombstone or transaction marker kept may be dropped (Long.MAX_VALUE: none kept)
 * @param swapped                  false if the log changed under the clean (retention, truncation) and nothing was swapped
 */
public record CleanResult(long cleanedUpToOffset, long bytesRead, long bytesWritten, long earliestTombstoneHorizonMs,
                          boolean swapped) {
}

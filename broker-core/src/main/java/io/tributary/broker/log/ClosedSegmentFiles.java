package io.tributary.broker.log;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A closed segment as the remote tier copies it: offsets {@code [baseOffset, endOffset)} (the end is the next
 * segment's base offset) and its files, named as Kafka names them.
 *
 * @param maxTimestamp     the largest record timestamp it holds (-1 if none has one)
 * @param txnIndex         its {@code .txnindex}, if it indexes any aborted transaction
 * @param producerSnapshot the producer-state snapshot taken at {@code endOffset} (in our local format), if the log still has it
 */
public record ClosedSegmentFiles(long baseOffset, long endOffset, long sizeInBytes, long maxTimestamp, Path log,
                                 Path offsetIndex, Path timeIndex, Optional<Path> txnIndex, Optional<Path> producerSnapshot) {
}

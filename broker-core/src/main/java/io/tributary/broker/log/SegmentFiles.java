package io.tributary.broker.log;

import java.nio.file.Path;
import java.util.OptionalLong;

/** File names of a segment: the base offset zero-padded to 20 digits plus a suffix, as Apache Kafka names them. */
final class SegmentFiles {

    static final String LOG_SUFFIX = ".log";
    static final String INDEX_SUFFIX = ".index";
    static final String TIME_INDEX_SUFFIX = ".timeindex";
    /** Appended to the files of a segment removed by retention until they are deleted. */
    static final String DELETED_SUFFIX = ".deleted";

    private SegmentFiles() {
    }

    static String baseName(long baseOffset) {
        return String.format("%020d", baseOffset);
    }

    static Path log(Path dir, long baseOffset) {
        return dir.resolve(baseName(baseOffset) + LOG_SUFFIX);
    }

    static Path offsetIndex(Path dir, long baseOffset) {
        return dir.resolve(baseName(baseOffset) + INDEX_SUFFIX);
    }

    static Path timeIndex(Path dir, long baseOffset) {
        return dir.resolve(baseName(baseOffset) + TIME_INDEX_SUFFIX);
    }

    /** The base offset of a {@code .log} file name, or empty for any other file. */
    static OptionalLong baseOffsetOfLog(Path file) {
        String name = file.getFileName().toString();
        if (!name.endsWith(LOG_SUFFIX)) {
            return OptionalLong.empty();
        }
        String digits = name.substring(0, name.length() - LOG_SUFFIX.length());
        if (digits.length() != 20 || !digits.chars().allMatch(Character::isDigit)) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Long.parseLong(digits));
    }
}

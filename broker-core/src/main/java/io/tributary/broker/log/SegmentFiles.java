package io.tributary.broker.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.OptionalLong;

/** File names of a segment: the base offset zero-padded to 20 digits plus a suffix, as Apache Kafka names them. */
final class SegmentFiles {

    static final String LOG_SUFFIX = ".log";
    static final String INDEX_SUFFIX = ".index";
    static final String TIME_INDEX_SUFFIX = ".timeindex";
    static final String TXN_INDEX_SUFFIX = ".txnindex";
    /** Appended to the files of a segment removed by retention until they are deleted. */
    static final String DELETED_SUFFIX = ".deleted";
    /** A cleaned segment being written: {@code <base>.<end>.cleaned}; deleted at start-up if a crash left it. */
    static final String CLEANED_SUFFIX = ".cleaned";
    /**
     * A complete cleaned segment that replaces the segments with base offsets in [base, end):
     * {@code <base>.<end>.swap}. Renaming .cleaned to .swap is the commit point of a clean; a swap
     * found at start-up is finished (old segments deleted, .swap renamed to {@code <base>.log}).
     */
    static final String SWAP_SUFFIX = ".swap";
    /**
     * The {@code .txnindex} of a cleaned segment, {@code <base>.<end>.txnindex.swap}: written and fsynced before the
     * clean commits, renamed to {@code <base>.txnindex} just before the log file is.
     */
    static final String TXN_INDEX_SWAP_SUFFIX = TXN_INDEX_SUFFIX + SWAP_SUFFIX;

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

    static Path txnIndex(Path dir, long baseOffset) {
        return dir.resolve(baseName(baseOffset) + TXN_INDEX_SUFFIX);
    }

    static Path cleaned(Path dir, long baseOffset, long endOffset) {
        return dir.resolve(baseName(baseOffset) + "." + baseName(endOffset) + CLEANED_SUFFIX);
    }

    static Path swap(Path dir, long baseOffset, long endOffset) {
        return dir.resolve(baseName(baseOffset) + "." + baseName(endOffset) + SWAP_SUFFIX);
    }

    static Path txnIndexSwap(Path dir, long baseOffset, long endOffset) {
        return dir.resolve(baseName(baseOffset) + "." + baseName(endOffset) + TXN_INDEX_SWAP_SUFFIX);
    }

    /**
     * Completes a committed swap of the cleaned segment replacing offsets [base, end), once the replaced segments'
     * files are gone: its {@code .txnindex} first, then its log file, so that a crash in between leaves the log's
     * {@code .swap} file to finish it again.
     */
    static void finishSwap(Path dir, long baseOffset, long endOffset) throws IOException {
        Path txnIndexSwap = txnIndexSwap(dir, baseOffset, endOffset);
        if (Files.exists(txnIndexSwap)) {
            Files.move(txnIndexSwap, txnIndex(dir, baseOffset), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(swap(dir, baseOffset, endOffset), log(dir, baseOffset), StandardCopyOption.ATOMIC_MOVE);
    }

    /** The offsets [base, end) a {@code .swap} file replaces, or null for any other file. */
    static long[] swapRange(Path file) {
        String name = file.getFileName().toString();
        if (!name.endsWith(SWAP_SUFFIX) || name.length() != 41 + SWAP_SUFFIX.length()) {
            return null;
        }
        try {
            return new long[]{Long.parseLong(name.substring(0, 20)), Long.parseLong(name.substring(21, 41))};
        } catch (NumberFormatException e) {
            return null;
        }
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

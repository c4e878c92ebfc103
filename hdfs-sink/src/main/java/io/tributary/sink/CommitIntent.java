package io.tributary.sink;

import org.apache.hadoop.fs.Path;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one partition commit is about to do: rename each temp file to its final path, then move
 * the ledger to {@code nextOffset}. Written to the partition's temp directory before the first
 * rename and deleted after the ledger write, so a crash in between is finished by the next
 * owner instead of leaving some files of a commit visible and others lost.
 *
 * <p>Text format, one entry per line, complete only with the {@code end} line:
 * <pre>
 * next=&lt;offset&gt;
 * rename=&lt;temp path&gt;\t&lt;final path&gt;
 * end
 * </pre>
 */
record CommitIntent(long nextOffset, List<Rename> renames) {
    static final String FILE_NAME = "commit.intent";
    private static final String NEXT = "next=";
    private static final String RENAME = "rename=";
    private static final String END = "end";

    record Rename(Path temp, Path target) {
    }

    CommitIntent {
        renames = List.copyOf(renames);
    }

    String encode() {
        StringBuilder text = new StringBuilder(NEXT).append(nextOffset).append('\n');
        for (Rename r : renames) {
            text.append(RENAME).append(r.temp()).append('\t').append(r.target()).append('\n');
        }
        return text.append(END).append('\n').toString();
    }

    /** The intent in {@code text}, empty if it is incomplete (the crash came before any rename). */
    static Optional<CommitIntent> decode(String text) {
        String[] lines = text.split("\n");
        if (lines.length < 2 || !lines[0].startsWith(NEXT) || !lines[lines.length - 1].equals(END)) {
            return Optional.empty();
        }
        List<Rename> renames = new ArrayList<>();
        for (int i = 1; i < lines.length - 1; i++) {
            String[] parts = lines[i].substring(RENAME.length()).split("\t");
            if (!lines[i].startsWith(RENAME) || parts.length != 2) {
                return Optional.empty();
            }
            renames.add(new Rename(new Path(parts[0]), new Path(parts[1])));
        }
        try {
            return Optional.of(new CommitIntent(Long.parseLong(lines[0].substring(NEXT.length())), renames));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}

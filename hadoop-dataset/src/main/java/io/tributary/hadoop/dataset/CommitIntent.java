package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.Path;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one partition commit of the sink is about to do: move the ledger from what the sink read
 * ({@code read}, of version {@code basisVersion}) to {@code nextOffset} by compare-and-set, as
 * commit {@code writer}, then rename each temp file to its final path. Written to the
 * partition's temp directory before the ledger advance and deleted after the renames, so the
 * next owner can finish a commit a crash cut short (if the ledger names {@code writer}) or drop
 * its files (if not), instead of leaving some files of a commit visible and others lost; a
 * loader finishes one too ({@link SinkIntents#finishCommitted}). Shared for that.
 *
 * <p>Text format, one entry per line, complete only with the {@code end} line:
 * <pre>
 * next=&lt;offset&gt;
 * writer=&lt;commit id&gt;
 * basis=&lt;ledger version read&gt;
 * read=&lt;next offset read, empty if the ledger had none&gt;
 * rename=&lt;temp path&gt;\t&lt;final path&gt;
 * end
 * </pre>
 */
public record CommitIntent(long nextOffset, String writer, long basisVersion, OptionalLong read, List<Rename> renames) {
    public static final String FILE_NAME = "commit.intent";
    private static final String NEXT = "next=";
    private static final String WRITER = "writer=";
    private static final String BASIS = "basis=";
    private static final String READ = "read=";
    private static final String RENAME = "rename=";
    private static final String END = "end";
    private static final int HEADER_LINES = 4;

    public record Rename(Path temp, Path target) {
    }

    public CommitIntent {
        renames = List.copyOf(renames);
    }

    /** This intent as the commit {@code id}'s. */
    public CommitIntent by(String id) {
        return new CommitIntent(nextOffset, id, basisVersion, read, renames);
    }

    public String encode() {
        StringBuilder text = new StringBuilder(NEXT).append(nextOffset).append('\n')
            .append(WRITER).append(writer).append('\n')
            .append(BASIS).append(basisVersion).append('\n')
            .append(READ).append(read.isPresent() ? Long.toString(read.getAsLong()) : "").append('\n');
        for (Rename r : renames) {
            text.append(RENAME).append(r.temp()).append('\t').append(r.target()).append('\n');
        }
        return text.append(END).append('\n').toString();
    }

    /** The intent in {@code text}, empty if it is incomplete (the crash came before the ledger advance). */
    public static Optional<CommitIntent> decode(String text) {
        String[] lines = text.split("\n");
        if (lines.length < HEADER_LINES + 1 || !lines[0].startsWith(NEXT) || !lines[1].startsWith(WRITER)
                || !lines[2].startsWith(BASIS) || !lines[3].startsWith(READ) || !lines[lines.length - 1].equals(END)) {
            return Optional.empty();
        }
        List<Rename> renames = new ArrayList<>();
        for (int i = HEADER_LINES; i < lines.length - 1; i++) {
            String[] parts = lines[i].substring(Math.min(RENAME.length(), lines[i].length())).split("\t");
            if (!lines[i].startsWith(RENAME) || parts.length != 2) {
                return Optional.empty();
            }
            renames.add(new Rename(new Path(parts[0]), new Path(parts[1])));
        }
        try {
            String read = lines[3].substring(READ.length());
            return Optional.of(new CommitIntent(Long.parseLong(lines[0].substring(NEXT.length())),
                lines[1].substring(WRITER.length()), Long.parseLong(lines[2].substring(BASIS.length())),
                read.isEmpty() ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(read)), renames));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}

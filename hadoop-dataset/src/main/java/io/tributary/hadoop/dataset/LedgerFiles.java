package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The file mechanics of one topic's ledger directory: numbered, immutable version files
 * {@code v<20-digit version>.ledger}, each the whole state, created only if absent. A version is
 * written to a temp file {@code .v<version>.<uuid>.tmp} first and then published under its
 * name by an operation that fails if the name is taken: a rename on HDFS (atomic in the
 * NameNode), a hard link on the local filesystem (Hadoop's local rename would overwrite). So a
 * version file is complete or absent, and two writers cannot both create the same version.
 * Beside them, created the same way: {@code <commit id>.pin} (the intent files of a commit that
 * recovery may ask about) and {@code <commit id>.receipt} (the version of a pinned commit that a
 * prune deleted). Thread-safe.
 */
final class LedgerFiles {
    private static final Pattern VERSION = Pattern.compile("v(\\d{20})" + Pattern.quote(DatasetLayout.LEDGER_SUFFIX));
    private static final String PIN_SUFFIX = ".pin";
    private static final String RECEIPT_SUFFIX = ".receipt";

    private final FileSystem fs;
    private final Path dir;
    private final String topic;

    LedgerFiles(FileSystem fs, Path dir, String topic) {
        this.fs = fs;
        this.dir = fs.makeQualified(dir);
        this.topic = topic;
    }

    Path dir() {
        return dir;
    }

    Path version(long version) {
        return new Path(dir, String.format(Locale.ROOT, "v%020d%s", version, DatasetLayout.LEDGER_SUFFIX));
    }

    /** The highest version in a directory listing; empty if there is none. Only a hint: a listing may miss a file created meanwhile. */
    OptionalLong newestListed() throws IOException {
        return versions().keySet().stream().mapToLong(Long::longValue).max();
    }

    /** The entries of a ledger file, empty if there is no such file (any more). */
    Optional<Map<Integer, Long>> read(Path file) throws IOException {
        Optional<String> text = readText(file);
        return text.isEmpty() ? Optional.empty() : Optional.of(LedgerText.parse(topic, file, text.get()));
    }

    /** Who created a version file, and on whose version: empty if there is no such file (any more). */
    Optional<LedgerText.Authors> authors(Path file) throws IOException {
        Optional<String> text = readText(file);
        return text.isEmpty() ? Optional.empty() : Optional.of(LedgerText.authors(text.get()));
    }

    /**
     * Whether version {@code version}, created by {@code writer}, is part of the chain: the next
     * version was built on it. False for an orphan (see {@link OffsetLedger}), and for a version
     * whose successor a prune just deleted (then it is deleted too, receipt first if pinned).
     */
    boolean succeeded(long version, String writer) throws IOException {
        return authors(version(version + 1)).filter(next -> next.after().equals(writer)).isPresent();
    }

    /** The lowest version in a directory listing; empty if there is none. */
    OptionalLong oldestListed() throws IOException {
        return versions().keySet().stream().mapToLong(Long::longValue).min();
    }

    private Optional<String> readText(Path file) throws IOException {
        return DurableFiles.readIfPresent(fs, file).map(bytes -> new String(bytes, StandardCharsets.UTF_8));
    }

    boolean exists(Path file) throws IOException {
        return fs.exists(file);
    }

    /**
     * Creates version {@code version} with {@code nextOffsets}, written by the commit
     * {@code writer} on the version {@code after} created, unless it exists.
     *
     * @return false if another writer created that version first
     */
    boolean publish(long version, Map<Integer, Long> nextOffsets, String writer, String after) throws IOException {
        return create(version(version), LedgerText.encode(topic, nextOffsets, writer, after));
    }

    /** The pin of a commit: present from before its ledger advance until none of its intents exists (see {@link OffsetLedger}). */
    Path pin(String commitId) {
        return new Path(dir, commitId + PIN_SUFFIX);
    }

    /** Where a prune records that a pinned commit's version existed before deleting it. */
    Path receipt(String commitId) {
        return new Path(dir, commitId + RECEIPT_SUFFIX);
    }

    /** Pins {@code commit}: its pin names its intent files, one a line. */
    void pin(LedgerCommit commit) throws IOException {
        StringBuilder text = new StringBuilder();
        commit.intents().forEach(intent -> text.append(fs.makeQualified(intent)).append('\n'));
        create(pin(commit.id()), text.toString());
    }

    /**
     * Deletes the pin of {@code commitId} and its receipt if none of the intents it names exists
     * any more: nobody can ask whether that commit happened. Receipt first, so a crash leaves a
     * pin, which the next call removes.
     *
     * @return whether the commit is unpinned now
     */
    boolean releaseIfResolved(String commitId) throws IOException {
        Optional<String> intents = readText(pin(commitId));
        if (intents.isPresent()) {
            for (String intent : intents.get().lines().toList()) {
                if (fs.exists(new Path(intent))) {
                    return false;
                }
            }
        }
        unpin(commitId);
        return true;
    }

    /** Removes a commit's pin and receipt unconditionally: for a commit whose advance was refused, so no version names it. */
    void unpin(String commitId) throws IOException {
        fs.delete(receipt(commitId), false);
        fs.delete(pin(commitId), false);
    }

    private boolean create(Path target, String text) throws IOException {
        return DurableFiles.createOnce(fs, target, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Deletes versions below {@code oldestKept}, lowest first (so a missing version implies every
     * lower one is missing too), and temp files last modified before {@code abandonedBeforeMs}:
     * writers that died before publishing left them. A version of the chain that names a pinned
     * commit gets that commit's receipt before it goes (an orphan gets none); pins whose intents
     * are all gone are released, and receipts without a pin removed.
     */
    void prune(long oldestKept, long abandonedBeforeMs) throws IOException {
        FileStatus[] listing = statuses();
        Set<String> pinned = new HashSet<>();
        for (FileStatus status : listing) {
            commitId(status, PIN_SUFFIX).ifPresent(id -> pinned.add(id));
        }
        for (Iterator<String> ids = pinned.iterator(); ids.hasNext(); ) {
            if (releaseIfResolved(ids.next())) {
                ids.remove();
            }
        }
        for (Map.Entry<Long, Path> v : versions(listing).entrySet()) {
            if (v.getKey() >= oldestKept) {
                break;
            }
            if (!pinned.isEmpty()) {
                Optional<String> author = authors(v.getValue()).map(LedgerText.Authors::writer);
                if (author.isPresent() && pinned.contains(author.get()) && succeeded(v.getKey(), author.get())) {
                    create(receipt(author.get()), Long.toString(v.getKey()));
                }
            }
            fs.delete(v.getValue(), false);
        }
        for (FileStatus status : listing) {
            String name = status.getPath().getName();
            Optional<String> receiptOf = commitId(status, RECEIPT_SUFFIX);
            if (receiptOf.isPresent() && !pinned.contains(receiptOf.get()) && !exists(pin(receiptOf.get()))) {
                fs.delete(status.getPath(), false); // its pin was released: nobody asks for it any more
            } else if (name.startsWith(".") && name.endsWith(DatasetLayout.TEMP_SUFFIX)
                    && status.getModificationTime() < abandonedBeforeMs) {
                fs.delete(status.getPath(), false);
            }
        }
    }

    private static Optional<String> commitId(FileStatus status, String suffix) {
        String name = status.getPath().getName();
        return name.endsWith(suffix) && !name.startsWith(".")
            ? Optional.of(name.substring(0, name.length() - suffix.length())) : Optional.empty();
    }

    void delete(Path file) throws IOException {
        fs.delete(file, false);
    }

    private TreeMap<Long, Path> versions() throws IOException {
        return versions(statuses());
    }

    private static TreeMap<Long, Path> versions(FileStatus[] listing) {
        TreeMap<Long, Path> versions = new TreeMap<>();
        for (FileStatus status : listing) {
            Matcher m = VERSION.matcher(status.getPath().getName());
            if (m.matches()) {
                versions.put(Long.parseLong(m.group(1)), status.getPath());
            }
        }
        return versions;
    }

    private FileStatus[] statuses() throws IOException {
        try {
            return fs.listStatus(dir);
        } catch (FileNotFoundException neverWritten) {
            return new FileStatus[0];
        }
    }
}

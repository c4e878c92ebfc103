package io.tributary.hadoop.dataset;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.utils.Time;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The loaded-offset ledger of one topic: for each partition, the next offset to load. Safe for
 * any number of concurrent writers (sinks committing different partitions, a loader and a sink)
 * on HDFS and on the local filesystem, by optimistic concurrency instead of a lock:
 * <ul>
 *   <li>Every advance is a compare-and-set against the entries the writer read: a partition
 *       another writer moved since is a {@link LedgerConflictException}, never a merge.</li>
 *   <li>The state lives in numbered version files {@code <root>/_tributary/ledger/<topic>/v<n>.ledger},
 *       each complete, never changed once created (see {@link LedgerFiles}).</li>
 *   <li>A writer reads the newest version {@code n}, checks its partitions, sets their entries
 *       and creates version {@code n + 1} if absent. If another writer created it first, it
 *       reads and compares again, so no writer can lose another's entries.</li>
 *   <li>A reader takes the newest listed version as a starting point and then opens
 *       {@code n + 1, n + 2, ...} until one is absent, so it never depends on a listing being
 *       atomic; then it checks that {@code n} still exists (it is not so far behind that newer
 *       versions were pruned).</li>
 *   <li>Writers delete versions more than {@value #KEPT_VERSIONS} behind, lowest first, and temp
 *       files of writers that died. A crash at any point leaves a spare temp file or an old
 *       version at most.</li>
 *   <li>A writer whose read was so old that pruning had freed the next name creates an orphan
 *       there, finds its predecessor gone and deletes it again; a crash can leave it. Each
 *       version names the writer of the version it was built on ({@code after=}), so an orphan
 *       (whose successor, if any, was built on another) never counts as its writer's commit.</li>
 *   <li>A commit that a recovery may have to finish is pinned while its intents exist
 *       ({@code <commit id>.pin}); deleting a version that names a pinned commit leaves that
 *       commit's receipt. So {@link #isCommitted} answers exactly, however many versions other
 *       writers add meanwhile, and the kept files stay bounded: a pin and a receipt a pending
 *       commit.</li>
 * </ul>
 * The single {@code <root>/_tributary/<topic>.ledger} file of earlier versions is still read
 * (merged by taking the larger offset) and is removed by the first write after it. It is read
 * before the versions, so that write cannot slip between the two reads. All writers of a
 * dataset must run this version: an older one would keep rewriting the single file. Thread-safe.
 */
public final class OffsetLedger {
    /** Versions kept behind the newest; a reader or writer further behind starts over from a listing. */
    static final int KEPT_VERSIONS = 20;
    /** A temp file this old belongs to a writer that died before publishing it. */
    static final Duration ABANDONED_TEMP_AGE = Duration.ofHours(1);
    private static final int MAX_ATTEMPTS = 100;

    private final LedgerFiles files;
    private final Path legacyFile;
    private final String topic;
    private final Time time;
    private volatile Version newestSeen = Version.NONE; // immutable files: a cache, not a source of truth

    private OffsetLedger(LedgerFiles files, Path legacyFile, String topic, Time time) {
        this.files = files;
        this.legacyFile = legacyFile;
        this.topic = topic;
        this.time = time;
    }

    /** The ledger of {@code topic} in the dataset of {@code layout}. */
    public static OffsetLedger open(DatasetLayout layout, String topic, Configuration conf) throws IOException {
        return open(layout.root().getFileSystem(conf), layout, topic, Time.SYSTEM);
    }

    /** As {@link #open(DatasetLayout, String, Configuration)} on a given filesystem and clock. */
    static OffsetLedger open(FileSystem fs, DatasetLayout layout, String topic, Time time) {
        return new OffsetLedger(new LedgerFiles(fs, layout.ledgerDir(topic), topic),
            fs.makeQualified(layout.legacyLedgerFile(topic)), topic, time);
    }

    /** The directory of the ledger's files. */
    public Path directory() {
        return files.dir();
    }

    /** The current state; empty if the topic was never loaded. */
    public LedgerState read() throws IOException {
        return snapshot().state();
    }

    /** The current state and the number of the version it came from. */
    public LedgerVersion readVersion() throws IOException {
        Snapshot current = snapshot();
        return new LedgerVersion(current.version(), current.state());
    }

    /**
     * Compare-and-set: moves the partitions of {@code nextOffsets} to their new next offsets if
     * each still holds what the writer read ({@code read}: the entries it planned from; a
     * partition without an entry there must still have none). Other partitions are kept,
     * including those a concurrent writer moves meanwhile: losing the race for the next version
     * file to a writer of other partitions only means trying again on top of its version.
     * A commit with intents is pinned first (see {@link #isCommitted}); the writer calls
     * {@link #release} once it has removed them. A refused advance unpins at once.
     *
     * @param commit the commit's id, recorded in the version file, and its intent files
     * @return the version this advance created, or the current one if it changes nothing
     * @throws LedgerConflictException if another writer moved any of the partitions; nothing is written
     * @throws LedgerRegressionException if a partition would move backward; nothing is written
     */
    public LedgerVersion advance(Map<Integer, Long> read, Map<Integer, Long> nextOffsets, LedgerCommit commit) throws IOException {
        if (!commit.intents().isEmpty()) {
            files.pin(commit); // durable before any version can name the commit
        }
        try {
            return compareAndSet(read, nextOffsets, commit.id());
        } catch (LedgerConflictException | LedgerRegressionException refused) {
            files.unpin(commit.id()); // no version names it: nothing to keep for a recovery
            throw refused;
        }
    }

    private LedgerVersion compareAndSet(Map<Integer, Long> read, Map<Integer, Long> nextOffsets, String writer) throws IOException {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            Snapshot current = snapshot();
            Map<Integer, LedgerConflictException.Moved> moved = current.state().movedSince(read, nextOffsets.keySet());
            if (!moved.isEmpty()) {
                throw new LedgerConflictException(topic, moved);
            }
            LedgerState next = current.state().advancedBy(nextOffsets);
            if (next.equals(current.state()) && !current.hasLegacyFile()) {
                return new LedgerVersion(current.version(), next);
            }
            long version = current.version() + 1;
            String after = current.version() == 0 ? ""
                : files.authors(files.version(current.version())).map(LedgerText.Authors::writer).orElse("");
            if (files.publish(version, next.nextOffsets(), writer, after)) {
                if (stillInTheChain(current.version())) {
                    newestSeen = new Version(version, next.nextOffsets());
                    cleanUp(version, current.hasLegacyFile());
                    return new LedgerVersion(version, next);
                }
                // Others wrote and pruned so much meanwhile that this name was free again: an orphan.
                files.delete(files.version(version));
                newestSeen = Version.NONE;
            }
            // Otherwise another writer created that version first: compare again against the newer state.
        }
        throw new IOException(this + ": " + MAX_ATTEMPTS + " writers in a row created the next version first; try again");
    }

    /**
     * Unpins commit {@code commitId}: for its writer, once it has removed every intent of the
     * commit itself (a finished or refused commit).
     */
    public void release(String commitId) throws IOException {
        files.unpin(commitId);
    }

    /**
     * Unpins commit {@code commitId} if none of its intents exists any more; a no-op otherwise
     * (another of its intents still waits for a recovery). For a recovery that finished or
     * dropped one intent of a commit; a prune releases what a crash left pinned the same way.
     */
    public void releaseIfResolved(String commitId) throws IOException {
        files.releaseIfResolved(commitId);
    }

    /**
     * Whether the advance of commit {@code writer}, planned from version {@code basisVersion}
     * with {@code read} and {@code nextOffsets} as in {@link #advance}, happened: asked by a
     * writer finishing a commit that a crash interrupted, while its intent exists. Exact under
     * any interleaving: the commit's pin was durable before any version could name it, and a
     * prune that deletes a version naming a pinned commit writes the commit's receipt first. So
     * the version is found among those after {@code basisVersion}, or the receipt is there
     * (looked for after the versions: a version missed because a prune just deleted it has its
     * receipt by then), or the advance never happened.
     */
    public boolean isCommitted(String writer, long basisVersion, Map<Integer, Long> read, Map<Integer, Long> nextOffsets)
            throws IOException {
        if (read.equals(nextOffsets)) {
            return true; // an advance that moves nothing writes no version
        }
        return aKeptVersionNames(writer, basisVersion + 1) || files.exists(files.receipt(writer));
    }

    /**
     * Whether one of the versions still kept was created by commit {@code commitId}: for a
     * report once a commit's intents are gone (its pin and receipt with them), not for recovery.
     * A commit more than {@value #KEPT_VERSIONS} versions behind is no longer found.
     */
    public boolean keptVersionNames(String commitId) throws IOException {
        return aKeptVersionNames(commitId, 1);
    }

    private boolean aKeptVersionNames(String writer, long from) throws IOException {
        long newest = snapshot().version();
        for (long v = Math.max(from, files.oldestListed().orElse(from)); v <= newest; v++) {
            if (files.authors(files.version(v)).filter(a -> a.writer().equals(writer)).isPresent()
                    && (v == newest || files.succeeded(v, writer))) {
                return true; // an orphan of this writer's (see the class comment) does not count
            }
        }
        return false;
    }

    /**
     * Whether the version just created after {@code previous} continues the newest chain: if
     * {@code previous} still exists, nothing above it was pruned, so the name was free because
     * nobody had used it (pruning deletes lowest first). Version 1 has no predecessor, but a
     * prune can only have deleted it once a version above {@code KEPT_VERSIONS + 1} exists.
     */
    private boolean stillInTheChain(long previous) throws IOException {
        if (previous > 0) {
            return files.exists(files.version(previous));
        }
        return files.newestListed().orElse(0) <= KEPT_VERSIONS + 1;
    }

    private void cleanUp(long created, boolean hadLegacyFile) throws IOException {
        if (hadLegacyFile) {
            files.delete(legacyFile); // its entries are in the version just created
        }
        if (created % (KEPT_VERSIONS / 2) == 0) {
            files.prune(created - KEPT_VERSIONS, time.milliseconds() - ABANDONED_TEMP_AGE.toMillis());
        }
    }

    private Snapshot snapshot() throws IOException {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            Optional<Map<Integer, Long>> legacy = files.read(legacyFile);
            Optional<Version> newest = newestVersion();
            if (newest.isPresent()) {
                newestSeen = newest.get();
                Map<Integer, Long> merged = new TreeMap<>(newest.get().nextOffsets());
                legacy.ifPresent(l -> l.forEach((p, o) -> merged.merge(p, o, Math::max)));
                try {
                    return new Snapshot(newest.get().number(), new LedgerState(topic, merged), legacy.isPresent());
                } catch (IllegalArgumentException e) {
                    throw new IOException("corrupt " + this + ": " + e.getMessage(), e);
                }
            }
        }
        throw new IOException(this + " changed under " + MAX_ATTEMPTS + " reads in a row; try again");
    }

    /** The newest version, {@link Version#NONE} if there is none; empty if the start point vanished (start over). */
    private Optional<Version> newestVersion() throws IOException {
        Version start = newestSeen;
        if (start == Version.NONE) {
            OptionalLong listed = files.newestListed();
            if (listed.isPresent()) {
                Optional<Map<Integer, Long>> entries = files.read(files.version(listed.getAsLong()));
                if (entries.isEmpty()) {
                    return Optional.empty(); // pruned since the listing
                }
                start = new Version(listed.getAsLong(), entries.get());
            }
        } else if (!files.exists(files.version(start.number()))) {
            // The cached version was pruned: the name after it may hold an orphan that a writer as far behind
            // published and left there. Only a walk from a version still present stays on the chain.
            newestSeen = Version.NONE;
            return Optional.empty();
        }
        Version newest = start;
        for (Optional<Map<Integer, Long>> next; (next = files.read(files.version(newest.number() + 1))).isPresent(); ) {
            newest = new Version(newest.number() + 1, next.get());
        }
        if (newest.number() > 0 && !files.exists(files.version(newest.number()))) {
            newestSeen = Version.NONE; // so far behind that newer versions were pruned: list again
            return Optional.empty();
        }
        return Optional.of(newest);
    }

    /** A version file's number and content; number 0 is the empty ledger before any version. */
    private record Version(long number, Map<Integer, Long> nextOffsets) {
        static final Version NONE = new Version(0, Map.of());
    }

    /** The merged state and the version it is based on. */
    private record Snapshot(long version, LedgerState state, boolean hasLegacyFile) {
    }

    /** A short description for logs. */
    @Override
    public String toString() {
        return "ledger " + files.dir();
    }
}

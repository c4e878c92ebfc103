package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.CommitMarker;
import io.tributary.hadoop.dataset.CommitPoint;
import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.DurableFiles;
import io.tributary.hadoop.dataset.JobStaging;
import io.tributary.hadoop.dataset.LedgerCommit;
import io.tributary.hadoop.dataset.Ledgers;
import io.tributary.hadoop.dataset.OffsetLedger;
import io.tributary.hadoop.dataset.RecordConverter;
import io.tributary.hadoop.input.InputConfig;
import io.tributary.hadoop.input.LoadPlan;
import io.tributary.hadoop.input.OffsetRange;
import io.tributary.hadoop.input.RecordPreparer;
import io.tributary.hadoop.input.TopicRecordWritable;
import io.tributary.hadoop.testing.Datasets;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.parquet.hadoop.ParquetWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The exactly-once protocol of the loader's committer, driven step by step on the local filesystem. */
class DatasetOutputCommitterTest {
    private static final JobID JOB = new JobID("test", 1);
    private static final long TS = 1_700_000_000_000L;

    @TempDir
    java.nio.file.Path dir;

    private Configuration conf;
    private Path root;
    private FileSystem fs;
    private final DatasetOutputFormat format = new DatasetOutputFormat();
    private final DatasetOutputCommitter committer = new DatasetOutputCommitter();

    @AfterEach
    void stopHeartbeat() {
        committer.stopHeartbeat(); // of a job a test set up and left, as a killed loader would
    }

    @BeforeEach
    void setUp() throws IOException {
        root = new Path(dir.resolve("lake").toUri());
        conf = new Configuration();
        conf.set(InputConfig.TOPIC, "t");
        conf.set(InputConfig.DATASET, root.toString());
        conf.set(InputConfig.PLAN, new LoadPlan("t", List.of(
            new LoadPlan.Partition(new OffsetRange(0, 0, 100), "", 0),
            new LoadPlan.Partition(new OffsetRange(1, 0, 100), "", 0))).encode());
        fs = FileSystem.getLocal(conf);
    }

    @Test
    void onlyTheCommittedAttemptOfATaskReachesTheDataset() throws Exception {
        JobContext job = new JobContextImpl(conf, JOB);
        committer.setupJob(job);
        TaskAttemptContext first = attempt(0, 0);
        TaskAttemptContext speculative = attempt(0, 1);
        write(first, 0, 0, 100);
        write(speculative, 0, 0, 100);
        TaskAttemptContext other = attempt(1, 0);
        write(other, 1, 0, 100);

        commit(speculative);
        commit(other);
        assertThatThrownBy(() -> committer.commitTask(first)).as("a second attempt of a committed task").isInstanceOf(IOException.class);
        committer.abortTask(first);
        assertThat(Datasets.dataFiles(root, "t", conf)).as("nothing visible before the job commits").isEmpty();

        committer.commitJob(job);
        assertThat(Datasets.offsetsByPartition(root, "t", conf)).allSatisfy((p, offsets) -> assertThat(offsets.cardinality()).isEqualTo(100));
        assertThat(ledger()).isEqualTo(Map.of(0, 100L, 1, 100L));
        assertThat(fs.exists(staging().jobDir())).isFalse();
    }

    @Test
    void anAbortedJobLeavesTheDatasetAsItWas() throws Exception {
        JobContext job = committedTasks(1);
        committer.abortJob(job, JobStatus.State.FAILED);
        assertThat(Datasets.dataFiles(root, "t", conf)).isEmpty();
        assertThat(ledger()).isEmpty();
        assertThat(fs.exists(staging().jobDir())).isFalse();
    }

    @Test
    void anInterruptedJobCommitIsFinishedByTheNextRun() throws Exception {
        committedTasks(2);
        // The commit wrote its marker, advanced the ledger and moved one file, then the process died.
        JobStaging staging = staging();
        CommitMarker written = new CommitMarker(JOB.toString(), 0, Map.of(), Map.of(0, 100L, 1, 100L));
        try (var marker = fs.create(staging.committingMarker())) {
            marker.writeBytes(written.encode());
        }
        OffsetLedger.open(DatasetLayout.utc(root), "t", conf).advance(Map.of(), written.next(), new LedgerCommit(written.writer(), List.of(staging.committingMarker())));
        Path oneFile = fs.listFiles(staging.tasksDir(), true).next().getPath();
        Path moved = new Path(root, oneFile.toUri().getPath().substring(fs.makeQualified(staging.tasksDir()).toUri().getPath().length() + 1)
            .replaceFirst("^[^/]+/", ""));
        fs.mkdirs(moved.getParent());
        assertThat(fs.rename(oneFile, moved)).isTrue();

        assertThat(JobCommit.recoverPending(DatasetLayout.utc(root), "t", conf)).isEqualTo(1);
        assertThat(Datasets.offsetsByPartition(root, "t", conf)).allSatisfy((p, offsets) -> assertThat(offsets.cardinality()).isEqualTo(100));
        assertThat(ledger()).isEqualTo(Map.of(0, 100L, 1, 100L));
        assertThat(fs.exists(staging.jobDir())).isFalse();
    }

    @Test
    void aRecoveryThatFinishesTheCommitWhileTheCommitIsStillRenamingIsNoFailure() throws Exception {
        JobContext job = committedTasks(2);
        AtomicBoolean recovered = new AtomicBoolean();
        // A slow loader past its ledger advance; a second loader starts and finishes its commit meanwhile.
        CommitPoint.listen((writer, point) -> {
            if (point == CommitPoint.BETWEEN_RENAMES && recovered.compareAndSet(false, true)) {
                try {
                    assertThat(JobCommit.recoverPending(DatasetLayout.utc(root), "t", conf)).isEqualTo(1);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        });
        try {
            committer.commitJob(job);
        } finally {
            CommitPoint.listen(null);
        }
        assertThat(recovered).isTrue();
        assertThat(Datasets.offsetsByPartition(root, "t", conf)).allSatisfy((p, offsets) -> assertThat(offsets.cardinality()).isEqualTo(100));
        assertThat(ledger()).isEqualTo(Map.of(0, 100L, 1, 100L));
        assertThat(fs.exists(staging().jobDir())).isFalse();
    }

    @Test
    void anotherFileWhereAStagedFileShouldGoIsAFailureEvenOnceTheStagedFileIsGone() throws Exception {
        JobContext job = committedTasks(2);
        JobStaging staging = staging();
        Path tasks = fs.makeQualified(staging.tasksDir());
        CommitPoint.listen((writer, point) -> {
            if (point == CommitPoint.BETWEEN_RENAMES) {
                try { // every file not yet moved vanishes, and something else takes its place
                    for (var it = fs.listFiles(tasks, true); it.hasNext(); ) {
                        Path staged = it.next().getPath();
                        String relative = staged.toUri().getPath().substring(tasks.toUri().getPath().length() + 1);
                        Path target = new Path(root, relative.substring(relative.indexOf('/') + 1));
                        try (var other = fs.create(target)) {
                            other.writeBytes("not the staged file");
                        }
                        fs.delete(staged, false);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        });
        try {
            assertThatThrownBy(() -> committer.commitJob(job)).hasMessageContaining("refusing to overwrite");
        } finally {
            CommitPoint.listen(null);
        }
    }

    @Test
    void theStagingAreaOfALoaderKilledBeforeItsIntentIsDeletedOnceItShowsNoSignOfLife() throws Exception {
        JobContext job = committedTasks(2);
        killAt(CommitPoint.AFTER_TEMP_FILES, job);
        assertThat(JobCommit.recoverPending(DatasetLayout.utc(root), "t", conf)).isZero();
        assertThat(fs.exists(staging().tasksDir())).as("a loader that died a moment ago, or is only slow").isTrue();

        backdateStaging();
        assertThat(JobCommit.recoverPending(DatasetLayout.utc(root), "t", conf)).isZero();
        assertThat(fs.exists(staging().jobDir())).isFalse();
        assertThat(Datasets.dataFiles(root, "t", conf)).isEmpty();
        assertThat(ledger()).isEmpty();
    }

    @Test
    void aHeartbeatKeepsTheStagingAreaOfASlowLoader() throws Exception {
        committedTasks(2);
        committer.stopHeartbeat(); // its next beat, a minute away, is the one this test makes at once
        backdateStaging();
        try (StagingHeartbeat heartbeat = StagingHeartbeat.start(fs, staging().stagedToken(), new LoaderConfig(conf).stagingHeartbeatInterval())) {
            heartbeat.beat();
        }
        assertThat(JobCommit.recoverPending(DatasetLayout.utc(root), "t", conf)).isZero();
        assertThat(fs.exists(staging().tasksDir())).isTrue();
    }

    @Test
    void aShorterAbandonAgeDeletesTheStagingAreaOfAKilledLoaderSooner() throws Exception {
        JobContext job = committedTasks(2);
        killAt(CommitPoint.AFTER_TEMP_FILES, job);
        backdateStaging(Duration.ofMinutes(5));
        assertThat(JobCommit.recoverPending(DatasetLayout.utc(root), "t", conf)).isZero();
        assertThat(fs.exists(staging().tasksDir())).as("five quiet minutes are not the default fifteen").isTrue();

        Configuration impatient = new Configuration(conf);
        impatient.setLong(LoaderConfig.STAGING_HEARTBEAT_INTERVAL_MS, 60_000);
        impatient.setLong(LoaderConfig.STAGING_ABANDONED_AFTER_MS, 4 * 60_000);
        assertThat(JobCommit.recoverPending(DatasetLayout.utc(root), "t", impatient)).isZero();
        assertThat(fs.exists(staging().jobDir())).as("five quiet minutes with an abandon age of four").isFalse();
        assertThat(ledger()).isEmpty();
    }

    @Test
    @Timeout(60)
    void aRunningJobTouchesItsStagingAreaAtTheConfiguredInterval() throws Exception {
        conf.setLong(LoaderConfig.STAGING_HEARTBEAT_INTERVAL_MS, 100);
        committer.setupJob(new JobContextImpl(conf, JOB));
        backdateStaging(Duration.ofMinutes(20));
        long backdated = fs.getFileStatus(staging().stagedToken()).getModificationTime();
        await().atMost(Duration.ofSeconds(30)).until(() -> fs.getFileStatus(staging().stagedToken()).getModificationTime() > backdated);
        assertThat(JobCommit.recoverPending(DatasetLayout.utc(root), "t", conf)).isZero();
        assertThat(fs.exists(staging().jobDir())).as("a job whose heartbeat goes on").isTrue();
    }

    @Test
    void aLoaderWhoseStagingAreaWasDeletedAsAbandonedRefusesToCommit() throws Exception {
        JobContext job = committedTasks(2);
        backdateStaging(); // its heartbeat stalled so long that it looked dead
        assertThat(JobCommit.recoverPending(DatasetLayout.utc(root), "t", conf)).isZero();
        assertThat(fs.exists(staging().jobDir())).isFalse();

        assertThatThrownBy(() -> committer.commitJob(job)).hasMessageContaining("deleted its staging area")
            .hasMessageContaining("nothing was committed");
        committer.abortJob(job, JobStatus.State.FAILED);
        assertThat(ledger()).as("a ledger advance here would count offsets whose files are gone").isEmpty();
        assertThat(fs.exists(staging().jobDir())).isFalse();
    }

    @Test
    void aLoaderWhoseStagingAreaWasClaimedAsAbandonedRefusesToCommit() throws Exception {
        JobContext job = committedTasks(2);
        // A later loader claimed it (and has not deleted it yet) just before this one began its commit.
        assertThat(DurableFiles.createOnce(fs, staging().committingMarker(), "claimed\n".getBytes(StandardCharsets.UTF_8))).isTrue();

        assertThatThrownBy(() -> committer.commitJob(job)).hasMessageContaining("claimed its staging area")
            .hasMessageContaining("nothing was committed");
        assertThat(ledger()).isEmpty();
        assertThat(Datasets.dataFiles(root, "t", conf)).isEmpty();
    }

    @Test
    void aCommitCutShortBeforeItsLedgerAdvanceIsLeftAloneUntilAnotherWriterOvertakesIt() throws Exception {
        committedTasks(1);
        JobStaging staging = staging();
        try (var marker = fs.create(staging.committingMarker())) {
            marker.writeBytes(new CommitMarker(JOB.toString(), 0, Map.of(), Map.of(0, 100L)).encode());
        }
        // It may still be running: nothing is moved, nothing deleted.
        assertThat(JobCommit.recoverPending(DatasetLayout.utc(root), "t", conf)).isZero();
        assertThat(fs.exists(staging.tasksDir())).isTrue();
        // Once another writer advanced its partition, it can never commit: its files go.
        Ledgers.advanceNow(OffsetLedger.open(DatasetLayout.utc(root), "t", conf), Map.of(0, 60L));
        assertThat(JobCommit.recoverPending(DatasetLayout.utc(root), "t", conf)).isZero();
        assertThat(fs.exists(staging.jobDir())).isFalse();
        assertThat(Datasets.dataFiles(root, "t", conf)).isEmpty();
        assertThat(ledger()).isEqualTo(Map.of(0, 60L));
    }

    @Test
    void aCommitWhoseLedgerAdvanceLosesLeavesNothingVisibleAndNamesThePartitions() throws Exception {
        JobContext job = committedTasks(2);
        OffsetLedger other = OffsetLedger.open(DatasetLayout.utc(root), "t", conf);
        CommitPoint.listen((writer, point) -> {
            if (point == CommitPoint.AFTER_INTENT) {
                try { // after the loader's ledger check, before its compare-and-set
                    Ledgers.advanceNow(other, Map.of(1, 70L));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        });
        try {
            assertThatThrownBy(() -> committer.commitJob(job)).hasMessageContaining("t-1 (next offset none -> 70)")
                .hasMessageContaining("nothing was committed");
        } finally {
            CommitPoint.listen(null);
        }
        assertThat(Datasets.dataFiles(root, "t", conf)).isEmpty();
        assertThat(fs.exists(staging().jobDir())).isFalse();
        assertThat(ledger()).isEqualTo(Map.of(1, 70L));
    }

    @Test
    void aTornCommitMarkerMeansNothingWasMovedAndTheStagingAreaCanGo() throws Exception {
        // Markers are published whole, so a torn one is an earlier version's, written in place by a process
        // that died before its ledger advance: empty, or cut before its end line.
        JobStaging staging = staging();
        for (String torn : new String[] {"", "0=100\n"}) {
            committedTasks(1);
            try (var marker = fs.create(staging.committingMarker(), true)) {
                marker.writeBytes(torn);
            }
            assertThat(JobCommit.recoverPending(DatasetLayout.utc(root), "t", conf)).as("marker '%s'", torn).isZero();
            assertThat(Datasets.offsetsByPartition(root, "t", conf)).as("marker '%s'", torn).isEmpty();
            assertThat(ledger()).isEmpty();
            assertThat(fs.exists(staging.jobDir())).isFalse();
        }
    }

    @Test
    void refusesToCommitWhenAnotherWriterLoadedThePlannedOffsets() throws Exception {
        JobContext job = committedTasks(1);
        Ledgers.advanceNow(OffsetLedger.open(DatasetLayout.utc(root), "t", conf), Map.of(0, 40L)); // e.g. the sink, meanwhile

        assertThatThrownBy(() -> committer.commitJob(job)).hasMessageContaining("t-0 [0, 40) are already in the dataset");
        assertThat(Datasets.dataFiles(root, "t", conf)).isEmpty();
        committer.abortJob(job, JobStatus.State.FAILED);
        assertThat(ledger()).isEqualTo(Map.of(0, 40L));
        assertThat(fs.exists(staging().jobDir())).isFalse();
    }

    @Test
    void aBackfillOverManyHoursKeepsFewFilesOpenAndLosesNothing() throws Exception {
        conf.setInt(LoaderConfig.MAX_OPEN_FILES, 2);
        JobContext job = new JobContextImpl(conf, JOB);
        committer.setupJob(job);
        Counters counters = new Counters();
        TaskAttemptContext task = new TaskAttemptContextImpl(conf, new TaskAttemptID(JOB.getJtIdentifier(), JOB.getId(), TaskType.MAP, 0, 0),
            new StatusReporter() { // keeps what the writer counts
                @Override
                public Counter getCounter(Enum<?> name) {
                    return counters.findCounter(name);
                }

                @Override
                public Counter getCounter(String group, String name) {
                    return counters.findCounter(group, name);
                }

                @Override
                public void progress() {
                }

                @Override
                public float getProgress() {
                    return 0;
                }

                @Override
                public void setStatus(String status) {
                }
            });
        RecordWriter<LongWritable, TopicRecordWritable> writer = format.getRecordWriter(task);
        for (long offset = 0; offset < 100; offset++) {
            long hour = offset < 50 ? offset / 10 : offset % 5; // five hours in order, then the same five interleaved
            writer.write(new LongWritable(offset), record(0, offset, TS + hour * 3_600_000));
        }
        writer.close(task);
        commit(task);
        committer.commitJob(job);

        assertThat(Datasets.offsetsByPartition(root, "t", conf).get(0).cardinality()).isEqualTo(100);
        assertThat(Datasets.dataFiles(root, "t", conf)).as("5 in-order files, then one per interleaved record").hasSize(55);
        assertThat(counters.findCounter(LoaderCounter.FILES_WRITTEN).getValue()).isEqualTo(55);
        assertThat(counters.findCounter(LoaderCounter.ROWS_WRITTEN).getValue()).isEqualTo(100);
    }

    @Test
    void recordsWithAndWithoutARowPreparedOnTheFetchThreadMakeTheSameRows() throws Exception {
        JobContext job = new JobContextImpl(conf, JOB);
        committer.setupJob(job);
        TaskAttemptContext task = attempt(0, 0);
        committer.setupTask(task);
        RecordPreparer preparer = new DatasetRowPreparer.Factory().create(conf);
        RecordWriter<LongWritable, TopicRecordWritable> writer = format.getRecordWriter(task);
        List<GenericRecord> expected = new ArrayList<>();
        RecordConverter fresh = RecordConverter.raw();
        for (long offset = 0; offset < 100; offset++) {
            ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("t", 0, offset, TS, TimestampType.CREATE_TIME, 0, 0,
                ("k" + offset).getBytes(StandardCharsets.UTF_8), ("v" + offset).getBytes(StandardCharsets.UTF_8), new RecordHeaders(), Optional.empty());
            TopicRecordWritable value = new TopicRecordWritable();
            value.set(record, offset % 2 == 0 ? preparer.prepare(record) : null); // odd offsets take the map thread's fallback
            writer.write(new LongWritable(offset), value);
            expected.add(fresh.convert(record));
        }
        writer.close(task);
        commit(task);
        committer.commitJob(job);

        Path direct = new Path(dir.resolve("direct.parquet").toUri());
        try (ParquetWriter<GenericRecord> parquet = new LoaderConfig(conf).writerFactory().open(direct, fresh.schema())) {
            for (GenericRecord row : expected) {
                parquet.write(row);
            }
        }
        assertThat(Datasets.dataFiles(root, "t", conf)).singleElement()
            .satisfies(file -> assertThat(Datasets.rows(file, conf)).hasSize(100).isEqualTo(Datasets.rows(direct, conf)));
    }

    // A set-up job with one committed task a partition, 0 to partitions - 1, of 100 records over two hours: two files each.
    private JobContext committedTasks(int partitions) throws Exception {
        JobContext job = new JobContextImpl(conf, JOB);
        committer.setupJob(job);
        for (int p = 0; p < partitions; p++) {
            TaskAttemptContext task = attempt(p, 0);
            write(task, p, 0, 100);
            commit(task);
        }
        return job;
    }

    // The job's process dies at point: its commit goes no further, nothing aborts it, its heartbeat stops.
    private void killAt(CommitPoint point, JobContext job) {
        CommitPoint.listen((writer, reached) -> {
            if (reached == point) {
                throw new IllegalStateException("killed at " + point.spelling());
            }
        });
        try {
            assertThatThrownBy(() -> committer.commitJob(job)).hasMessage("killed at " + point.spelling());
        } finally {
            CommitPoint.listen(null);
        }
    }

    // Every file and directory of the staging area as last touched longer ago than a live job allows by default.
    private void backdateStaging() throws IOException {
        backdateStaging(Duration.ofMillis(LoaderConfig.DEFAULT_STAGING_ABANDONED_AFTER_MS).plusMinutes(1));
    }

    private void backdateStaging(Duration ago) throws IOException {
        long longAgo = System.currentTimeMillis() - ago.toMillis();
        Path jobDir = staging().jobDir();
        for (var it = fs.listFiles(jobDir, true); it.hasNext(); ) {
            fs.setTimes(it.next().getPath(), longAgo, -1);
        }
        backdateDirectories(jobDir, longAgo);
    }

    private void backdateDirectories(Path dir, long time) throws IOException {
        for (var child : fs.listStatus(dir)) {
            if (child.isDirectory()) {
                backdateDirectories(child.getPath(), time);
            }
        }
        fs.setTimes(dir, time, -1);
    }

    private JobStaging staging() {
        return new JobStaging(DatasetLayout.utc(root), "t", JOB.toString());
    }

    private Map<Integer, Long> ledger() throws IOException {
        return OffsetLedger.open(DatasetLayout.utc(root), "t", conf).read().nextOffsets();
    }

    private TaskAttemptContext attempt(int task, int attempt) {
        return new TaskAttemptContextImpl(conf, new TaskAttemptID(JOB.getJtIdentifier(), JOB.getId(), TaskType.MAP, task, attempt));
    }

    private void write(TaskAttemptContext context, int partition, long from, long to) throws Exception {
        committer.setupTask(context);
        RecordWriter<LongWritable, TopicRecordWritable> writer = format.getRecordWriter(context);
        for (long offset = from; offset < to; offset++) {
            writer.write(new LongWritable(offset), record(partition, offset, TS + offset * 60_000));
        }
        writer.close(context);
    }

    private static TopicRecordWritable record(int partition, long offset, long timestamp) {
        return new TopicRecordWritable(new ConsumerRecord<>("t", partition, offset, timestamp, TimestampType.CREATE_TIME,
            0, 0, null, new byte[] {1}, new RecordHeaders(), Optional.empty()));
    }

    private void commit(TaskAttemptContext context) throws IOException {
        assertThat(committer.needsTaskCommit(context)).isTrue();
        committer.commitTask(context);
    }
}

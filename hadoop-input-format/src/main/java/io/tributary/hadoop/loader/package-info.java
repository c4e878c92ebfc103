/**
 * The {@code hadoop jar} loader ({@link io.tributary.hadoop.loader.TopicLoader}): one map-only
 * job that reads planned offset ranges with {@link io.tributary.hadoop.input.TopicInputFormat}
 * and writes the shared Parquet dataset with {@link io.tributary.hadoop.loader.DatasetOutputFormat}.
 * Exactly once through {@link io.tributary.hadoop.loader.DatasetOutputCommitter}: attempts
 * write in private staging directories, one attempt per task commits, the job commit moves files
 * into place and writes the ledger last, and an interrupted job commit is finished by the next
 * run.
 */
package io.tributary.hadoop.loader;

/**
 * Reading a Kafka topic (from Tributary or any Kafka cluster, through kafka-clients only) as
 * MapReduce input, split by offset ranges.
 *
 * <ul>
 *   <li>Planning ({@link io.tributary.hadoop.input.JobPlanning}, once per job):
 *       {@link io.tributary.hadoop.input.RangePlanner} fixes {@code [start, last stable offset)}
 *       ({@code read_committed}, the default; the high watermark under {@code read_uncommitted}) per
 *       partition from a {@link io.tributary.hadoop.input.StartPosition} into a
 *       {@link io.tributary.hadoop.input.LoadPlan}, stored in the job configuration so a job is
 *       deterministic; {@link io.tributary.hadoop.input.SplitPlanner} cuts it into
 *       {@link io.tributary.hadoop.input.TopicSplit}s.</li>
 *   <li>Reading: {@link io.tributary.hadoop.input.OffsetRangeReader} (assign, seek, poll; no
 *       dense-offset assumption), run ahead on a fetch thread by
 *       {@link io.tributary.hadoop.input.PrefetchingRangeReader} (unless
 *       {@code tributary.reader.prefetch=false}), wrapped by the record readers of
 *       {@link io.tributary.hadoop.input.TopicInputFormat} (new API) and
 *       {@link io.tributary.hadoop.input.MapredTopicInputFormat} (old API). A job may name a
 *       {@link io.tributary.hadoop.input.RecordPreparer} to run per record on the fetch thread
 *       (the loader builds its Parquet rows there); its results reach the map thread with the
 *       records.</li>
 *   <li>Records deleted by retention: {@link io.tributary.hadoop.dataset.MissingPolicy}.</li>
 * </ul>
 * Settings are the {@link io.tributary.hadoop.input.InputConfig} keys.
 */
package io.tributary.hadoop.input;

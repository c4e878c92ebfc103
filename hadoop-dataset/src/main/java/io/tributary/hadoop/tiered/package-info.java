/**
 * The remote part of tiered logs on a Hadoop FileSystem: the contract between the broker that writes it
 * (remote-storage-hdfs) and the readers of tiered segments (the loader's tiered splits), which never depend on each
 * other. {@link io.tributary.hadoop.tiered.TieredLayout} says where everything lies,
 * {@link io.tributary.hadoop.tiered.PartitionManifest} what a partition's remote part holds (its text is the
 * contract), {@link io.tributary.hadoop.tiered.ManifestStore} keeps its versions (each commit a compare-and-set on any
 * FileSystem), and {@link io.tributary.hadoop.tiered.SegmentFile} names a copy's files as Kafka names a segment's.
 * The segment files themselves are the broker's, byte for byte: RecordBatch v2 with CRC-32C per batch, Kafka's
 * offset, time and transaction indexes. Classes here are immutable or stateless and thread-safe.
 */
package io.tributary.hadoop.tiered;

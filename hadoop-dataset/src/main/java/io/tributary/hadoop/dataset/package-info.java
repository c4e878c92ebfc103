/**
 * The dataset contract shared by the batch loader and the streaming hdfs-sink, so that a topic
 * written by either one is one table.
 *
 * <pre>
 * &lt;output&gt;/&lt;topic&gt;/dt=YYYY-MM-DD/hr=HH/&lt;topic&gt;+&lt;partition&gt;+&lt;startOffset&gt;+&lt;endOffset&gt;.parquet
 * &lt;output&gt;/_tributary/ledger/&lt;topic&gt;/*.ledger   per-partition next offset to load (update files)
 * &lt;output&gt;/_tributary/ledger/&lt;topic&gt;/*.pin, *.receipt   commits a recovery may ask about
 * &lt;output&gt;/_tributary/tmp/&lt;topic&gt;/&lt;partition&gt;/   temp files of writers in progress
 * </pre>
 *
 * <ul>
 *   <li>{@link io.tributary.hadoop.dataset.DataFileName}: the final file name; endOffset is the
 *       inclusive last offset in the file.</li>
 *   <li>{@link io.tributary.hadoop.dataset.DatasetLayout}: where buckets, temp files and the
 *       ledger live; buckets follow the record timestamp in a configurable zone (UTC default).</li>
 *   <li>{@link io.tributary.hadoop.dataset.RecordSchema} and
 *       {@link io.tributary.hadoop.dataset.RecordConverter}: the Avro/Parquet columns.</li>
 *   <li>{@link io.tributary.hadoop.dataset.OffsetLedger}: the loaded-offset ledger, only ever
 *       moved forward, each advance a compare-and-set; each update is a new immutable file, so
 *       concurrent writers need no lock. It answers exactly whether an interrupted commit's
 *       advance happened ({@link io.tributary.hadoop.dataset.LedgerCommit}: pins and receipts).</li>
 *   <li>{@link io.tributary.hadoop.dataset.NewestCommittedFiles}: a bounded look at the newest
 *       buckets, so a writer resumes at max(ledger, newest committed end + 1).</li>
 *   <li>{@link io.tributary.hadoop.dataset.ParquetWriterFactory}: one way to open writers, of
 *       rows or of rows a {@link io.tributary.hadoop.dataset.RowShredder} took apart on another
 *       thread ({@link io.tributary.hadoop.dataset.ShreddedRow}; the same file either way).</li>
 * </ul>
 *
 * Commit order for every writer ({@link io.tributary.hadoop.dataset.CommitPoint} names the
 * steps): write temp files and sync them, write an intent, advance the ledger by compare-and-set
 * against what the writer read (the commit point: a writer that loses has made nothing visible),
 * rename the files to their final names, remove the intent. A file is visible to readers only
 * under its final name; everything
 * under {@code _tributary} is hidden from Hadoop/Spark/Hive readers by its leading underscore.
 * Classes here are immutable or stateless and thread-safe unless their comment says otherwise.
 */
package io.tributary.hadoop.dataset;

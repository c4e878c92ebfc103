// What a spark-shell user types, as docs/hadoop.md shows it: ShadedJarIT runs the marked region in
// the Scala interpreter spark-shell is built on, with spark, bootstrapServers and lake bound.
// docs/hadoop.md: Spark Scala
import io.tributary.hadoop.input.{TopicInputFormat, TopicRecordWritable}
import java.nio.charset.StandardCharsets.UTF_8
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.io.LongWritable

val conf = new Configuration(spark.sparkContext.hadoopConfiguration)
TopicInputFormat.configure(conf, bootstrapServers, "pageviews", "earliest")
val records = spark.sparkContext.newAPIHadoopRDD(conf, classOf[TopicInputFormat], classOf[LongWritable], classOf[TopicRecordWritable])
// Record readers reuse their objects: take the fields out before collecting or caching.
val ids = records.map { case (_, r) => s"${r.partition}/${r.offset}/${new String(r.value, UTF_8)}" }.collect()

// The dataset needs no jar.
val rows = spark.read.parquet(s"$lake/pageviews")
val seventh = rows.where("partition = 1 AND offset = 7").selectExpr("CAST(value AS STRING)").first()
// end

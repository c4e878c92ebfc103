package io.tributary.hadoop.shaded;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/hadoop.md shows the code ShadedJarIT runs, line for line. */
class HadoopDocTest {
    @Test
    void everyMarkedTestRegionIsAJavaBlockOfTheDocument() throws Exception {
        Map<String, String> regions = HadoopDoc.regions(HadoopDoc.TEST_SOURCE);
        List<String> blocks = HadoopDoc.blocks("java");

        assertThat(regions).containsOnlyKeys("MapReduce", "MapReduce mapper", "Spark newAPIHadoopRDD", "Spark hadoopRDD", "Spark parquet");
        regions.forEach((name, code) -> assertThat(blocks).as("docs/hadoop.md shows the code of '" + name + "'").contains(code));
    }

    @Test
    void theScalaRegionShadedJarITRunsInTheScalaShellIsTheDocumentsScalaBlock() throws Exception {
        Map<String, String> regions = HadoopDoc.regions(HadoopDoc.SPARK_SHELL_SOURCE);

        assertThat(regions).containsOnlyKeys("Spark Scala");
        assertThat(HadoopDoc.blocks("scala")).containsExactly(regions.get("Spark Scala"));
    }

    @Test
    void theHiveStatementsAreTheDocumentsSqlBlock() throws Exception {
        assertThat(HadoopDoc.hiveStatements("file:/lake")).hasSize(2)
            .allSatisfy(s -> assertThat(s).doesNotContain("hdfs:///data/lake"))
            .last().isEqualTo("MSCK REPAIR TABLE pageviews");
        assertThat(HadoopDoc.hiveStatements("file:/lake").get(0)).startsWith("CREATE EXTERNAL TABLE pageviews (")
            .endsWith("LOCATION 'file:/lake/pageviews'");
    }
}

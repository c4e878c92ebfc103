package io.tributary.hadoop.loader;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LocalRunnerDefaultsTest {
    private static final String POLL = "mapreduce.client.completion.pollinterval";
    private static final String MAPS = "mapreduce.local.map.tasks.maximum";

    @Test
    void localJobsUseTheCoresAndLookForTheJobsEndOften() {
        Configuration conf = new JobConf(); // with Hadoop's mapred-default.xml, whose poll interval is 5 s
        assertThat(conf.get(POLL)).isEqualTo("5000");

        TopicLoader.applyLocalRunnerDefaults(conf);

        assertThat(conf.getInt(MAPS, -1)).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(conf.getInt(POLL, -1)).isEqualTo(20);
    }

    @Test
    void theLoadersJobGetsThemOnItsOwnConfiguration() throws Exception {
        Job local = TopicLoader.newJob(new Configuration(), "t");
        assertThat(local.getConfiguration().getInt(POLL, -1)).isEqualTo(20);
        assertThat(local.getConfiguration().getInt(MAPS, -1)).isEqualTo(Runtime.getRuntime().availableProcessors());

        Configuration cluster = new Configuration();
        cluster.set("mapreduce.framework.name", "yarn");
        Job yarn = TopicLoader.newJob(cluster, "t");
        assertThat(yarn.getConfiguration().getInt(POLL, -1)).isEqualTo(5000);
        assertThat(yarn.getConfiguration().get(MAPS)).isNull();
    }

    @Test
    void whatTheUserSetIsKept() {
        Configuration conf = new JobConf();
        conf.setInt(POLL, 2000);
        conf.setInt(MAPS, 1);

        TopicLoader.applyLocalRunnerDefaults(conf);

        assertThat(conf.getInt(POLL, -1)).isEqualTo(2000);
        assertThat(conf.getInt(MAPS, -1)).isEqualTo(1);
    }

    @Test
    void jobsForAClusterAreLeftAlone() {
        Configuration conf = new JobConf();
        conf.set("mapreduce.framework.name", "yarn");

        TopicLoader.applyLocalRunnerDefaults(conf);

        assertThat(conf.getInt(POLL, -1)).isEqualTo(5000);
        assertThat(conf.get(MAPS)).isNull();
    }
}

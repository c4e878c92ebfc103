package io.tributary.hadoop.loader;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class LocalRunnerDefaultsTest {
    private static final String POLL = "mapreduce.client.completion.pollinterval";
    private static final String MAPS = "mapreduce.local.map.tasks.maximum";

    @Test
    void localJobsUseTheCoresAndLookForTheJobsEndOften() {
        Configuration conf = new JobConf(); // with Hadoop's mapred-default.xml, whose poll interval is 5 s
        assertEquals("5000", conf.get(POLL));

        TopicLoader.applyLocalRunnerDefaults(conf);

        assertEquals(Runtime.getRuntime().availableProcessors(), conf.getInt(MAPS, -1));
        assertEquals(20, conf.getInt(POLL, -1));
    }

    @Test
    void theLoadersJobGetsThemOnItsOwnConfiguration() throws Exception {
        Job local = TopicLoader.newJob(new Configuration(), "t");
        assertEquals(20, local.getConfiguration().getInt(POLL, -1));
        assertEquals(Runtime.getRuntime().availableProcessors(), local.getConfiguration().getInt(MAPS, -1));

        Configuration cluster = new Configuration();
        cluster.set("mapreduce.framework.name", "yarn");
        Job yarn = TopicLoader.newJob(cluster, "t");
        assertEquals(5000, yarn.getConfiguration().getInt(POLL, -1));
        assertNull(yarn.getConfiguration().get(MAPS));
    }

    @Test
    void whatTheUserSetIsKept() {
        Configuration conf = new JobConf();
        conf.setInt(POLL, 2000);
        conf.setInt(MAPS, 1);

        TopicLoader.applyLocalRunnerDefaults(conf);

        assertEquals(2000, conf.getInt(POLL, -1));
        assertEquals(1, conf.getInt(MAPS, -1));
    }

    @Test
    void jobsForAClusterAreLeftAlone() {
        Configuration conf = new JobConf();
        conf.set("mapreduce.framework.name", "yarn");

        TopicLoader.applyLocalRunnerDefaults(conf);

        assertEquals(5000, conf.getInt(POLL, -1));
        assertNull(conf.get(MAPS));
    }
}

package io.tributary.hadoop.testing;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.mapreduce.v2.jobhistory.JHAdminConfig;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * HDFS and YARN (with the job history server) as a cluster a user submits to: the clients get
 * only the {@code *-site.xml} files a cluster admin hands out ({@link #clientConfDir()}), and the
 * containers only a Hadoop installation's jars ({@link HadoopInstallation#linkJars}). The mini
 * cluster's own {@code yarn.is.minicluster}, which would copy the client's class path into the
 * containers, never reaches a client.
 */
public final class MiniHadoop implements AutoCloseable {
    /** Server settings a client must share: where the services are, and where the history goes. */
    private static final List<String> YARN_CLIENT_KEYS = List.of(YarnConfiguration.RM_ADDRESS, YarnConfiguration.RM_SCHEDULER_ADDRESS,
        YarnConfiguration.RM_WEBAPP_ADDRESS);
    private static final List<String> MAPRED_CLIENT_KEYS = List.of(JHAdminConfig.MR_HISTORY_ADDRESS, JHAdminConfig.MR_HISTORY_WEBAPP_ADDRESS,
        MRJobConfig.MR_AM_STAGING_DIR, JHAdminConfig.MR_HISTORY_INTERMEDIATE_DONE_DIR, JHAdminConfig.MR_HISTORY_DONE_DIR);

    private final MiniDFSCluster dfs;
    private final MiniMRYarnCluster yarn;
    private final Path clientConfDir;
    private final Path containerJars;

    private MiniHadoop(MiniDFSCluster dfs, MiniMRYarnCluster yarn, Path clientConfDir, Path containerJars) {
        this.dfs = dfs;
        this.yarn = yarn;
        this.clientConfDir = clientConfDir;
        this.containerJars = containerJars;
    }

    public static MiniHadoop start(Path dir) throws IOException {
        Configuration conf = new Configuration();
        MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, dir.resolve("dfs").toFile()).numDataNodes(1).build();
        MiniMRYarnCluster yarn = null;
        try {
            conf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
            // Sized for 2 shared cores (see NOTES.md): no memory checks, quick container stop.
            conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
            conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
            conf.setLong(YarnConfiguration.NM_SLEEP_DELAY_BEFORE_SIGKILL_MS, 100);
            conf.setLong(YarnConfiguration.NM_PROCESS_KILL_WAIT_MS, 100);
            conf.setBoolean(YarnConfiguration.LOG_AGGREGATION_ENABLED, true);
            // Containers are handed out on node heartbeats: every 100 ms rather than every second, as a small cluster may run.
            conf.setLong(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 100);
            yarn = new MiniMRYarnCluster("tributary-yarn-it", 1);
            yarn.init(conf);
            yarn.start();
            Path hadoopJars = HadoopInstallation.linkJars(dir.resolve("hadoop-home/share"));
            return new MiniHadoop(dfs, yarn, writeClientConf(yarn.getConfig(), dir.resolve("client-conf"), hadoopJars.resolve("*").toString()),
                hadoopJars);
        } catch (IOException | RuntimeException e) {
            if (yarn != null) {
                yarn.stop();
            }
            dfs.shutdown();
            throw e;
        }
    }

    /** The directory to point {@code HADOOP_CONF_DIR} at. */
    public Path clientConfDir() {
        return clientConfDir;
    }

    /** The directory of the jars the containers get (the cluster's Hadoop installation). */
    public Path containerJars() {
        return containerJars;
    }

    /** A configuration of the client files alone, as a client JVM reads them. */
    public Configuration clientConf() {
        Configuration conf = new Configuration(false);
        for (String site : List.of("core", "hdfs", "yarn", "mapred")) {
            conf.addResource(new org.apache.hadoop.fs.Path(clientConfDir.resolve(site + "-site.xml").toUri()));
        }
        return new Configuration(conf);
    }

    public String hdfsUri() throws IOException {
        return dfs.getFileSystem().getUri().toString();
    }

    private static Path writeClientConf(Configuration server, Path dir, String hadoopClassPath) throws IOException {
        Files.createDirectories(dir);
        Configuration core = new Configuration(false);
        core.set("fs.defaultFS", server.get("fs.defaultFS"));
        write(core, dir.resolve("core-site.xml"));

        Configuration hdfs = new Configuration(false);
        hdfs.set("dfs.replication", "1");
        write(hdfs, dir.resolve("hdfs-site.xml"));

        Configuration yarnSite = copy(server, YARN_CLIENT_KEYS);
        yarnSite.set(YarnConfiguration.YARN_APPLICATION_CLASSPATH, hadoopClassPath);
        write(yarnSite, dir.resolve("yarn-site.xml"));

        Configuration mapred = copy(server, MAPRED_CLIENT_KEYS);
        mapred.set(MRConfig.FRAMEWORK_NAME, MRConfig.YARN_FRAMEWORK_NAME);
        mapred.set(MRJobConfig.MAPREDUCE_APPLICATION_CLASSPATH, hadoopClassPath);
        // Container sizes an admin of a small cluster would set; speculation off on 2 cores.
        mapred.setInt(MRJobConfig.MR_AM_VMEM_MB, 512);
        mapred.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx384m");
        mapred.setInt(MRJobConfig.MAP_MEMORY_MB, 384);
        mapred.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx256m");
        mapred.setBoolean(MRJobConfig.MAP_SPECULATIVE, false);
        // The application master asks for its map containers (and a failed attempt's next one) every 100 ms, not every second.
        mapred.setInt(MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, 100);
        mapred.setInt("mapreduce.client.completion.pollinterval", 500);
        write(mapred, dir.resolve("mapred-site.xml"));
        return dir;
    }

    private static Configuration copy(Configuration server, List<String> keys) {
        Configuration site = new Configuration(false);
        for (String key : keys) {
            String value = server.get(key);
            if (value != null) {
                site.set(key, value);
            }
        }
        return site;
    }

    private static void write(Configuration site, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            site.writeXml(out);
        }
    }

    @Override
    public void close() {
        yarn.stop();
        dfs.shutdown();
    }
}

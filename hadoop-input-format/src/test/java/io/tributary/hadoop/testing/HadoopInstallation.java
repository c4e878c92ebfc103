package io.tributary.hadoop.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What a Hadoop installation has and has not on its class path, for tests that must not let our
 * own libraries reach a job by any way but the one a user has: the job jar or {@code -libjars}.
 */
public final class HadoopInstallation {
    /** Jar name prefixes of the libraries the loader needs that no Hadoop installation ships (our hadoop-dataset among them). */
    public static final List<String> NOT_IN_HADOOP = List.of("hadoop-dataset", "kafka-clients", "parquet-", "zstd-jni", "aircompressor", "jts-core",
        "commons-pool");
    /**
     * This project's own jars, the test libraries and the peer broker (Apache Kafka's server jars,
     * Scala), which a cluster does not have either: jar name prefixes, and Maven group directories.
     */
    private static final List<String> OURS_OR_TESTING = List.of("broker-core", "testkit", "hadoop-input-format", "hdfs-sink",
        "realtime-consumer", "junit-", "opentest4j", "apiguardian", "assertj-", "awaitility", "jqwik", "hamcrest", "kafka", "scala");
    private static final List<String> TEST_ONLY_GROUPS = List.of("/org/apache/kafka/", "/org/scala-lang/", "/com/typesafe/",
        "/net/sourceforge/argparse4j/", "/net/sf/jopt-simple/", "/io/tributary/");

    private HadoopInstallation() {
    }

    public static boolean shippedByHadoop(Path jar) {
        String name = jar.getFileName().toString();
        String path = jar.toAbsolutePath().toString();
        return name.endsWith(".jar") && NOT_IN_HADOOP.stream().noneMatch(name::startsWith) && OURS_OR_TESTING.stream().noneMatch(name::startsWith)
            && TEST_ONLY_GROUPS.stream().noneMatch(path::contains);
    }

    /**
     * A {@code share/hadoop} directory for the mini cluster's containers: links to the jars of this
     * test JVM's class path that a Hadoop installation ships (Hadoop, the mini cluster's servers
     * and their dependencies), and nothing else; directories of classes are left out.
     */
    public static Path linkJars(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path jar = Path.of(entry);
            Path link = dir.resolve(jar.getFileName().toString());
            if (Files.isRegularFile(jar) && shippedByHadoop(jar) && !Files.exists(link)) {
                Files.createSymbolicLink(link, jar.toAbsolutePath());
            }
        }
        return dir;
    }

    public static List<String> jarNames(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}

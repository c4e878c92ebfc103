package io.tributary.benchmarks.harness;

import java.nio.file.Path;

/** One child JVM of a cluster: the folder it runs in (and keeps its files in), and how to start it. */
public record NodeLaunch(Path workDir, BrokerLaunch launch) {
}

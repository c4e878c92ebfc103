package io.tributary.benchmarks.harness;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.utils.Time;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * Runs one node of a multi-node Apache Kafka 4.4 KRaft cluster (a controller or a broker) as the
 * only thing in its JVM, until SIGTERM. Every node of a cluster is formatted with the same
 * cluster id, which is why this is not the testkit's single-node {@code ApacheKafka}.
 *
 * <pre>KafkaNodeMain &lt;cluster id&gt; &lt;server.properties&gt;</pre>
 */
public final class KafkaNodeMain {
    private KafkaNodeMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 2) {
            System.err.println("usage: KafkaNodeMain <cluster id> <server.properties>");
            System.exit(2);
        }
        String clusterId = args[0];
        Path config = Path.of(args[1]);
        ByteArrayOutputStream formatLog = new ByteArrayOutputStream();
        int rc = StorageTool.execute(new String[] {"format", "-t", clusterId, "-c", config.toString()},
                new PrintStream(formatLog, true, StandardCharsets.UTF_8));
        if (rc != 0) {
            System.err.println("kafka storage format failed: " + formatLog.toString(StandardCharsets.UTF_8));
            System.exit(1);
        }
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(config)) {
            props.load(in);
        }
        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
        server.startup();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdown();
            server.awaitShutdown();
        }, "stop-kafka-node"));
        new CountDownLatch(1).await();
    }
}

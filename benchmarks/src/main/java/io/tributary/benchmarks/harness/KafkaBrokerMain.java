package io.tributary.benchmarks.harness;

import io.tributary.testkit.ApacheKafka;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Runs Apache Kafka 4.4 (KRaft combined mode) as the only thing in its JVM, until SIGTERM.
 *
 * <pre>KafkaBrokerMain &lt;data dir&gt; &lt;ready file&gt; [key=value ...]</pre>
 *
 * Once the broker answers Admin calls its bootstrap address is written to the ready file (atomically,
 * so a reader never sees half of it).
 */
public final class KafkaBrokerMain {
    private KafkaBrokerMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length < 2) {
            System.err.println("usage: KafkaBrokerMain <data dir> <ready file> [key=value ...]");
            System.exit(2);
        }
        Path dataDir = Path.of(args[0]);
        Path readyFile = Path.of(args[1]);
        Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 2; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                System.err.println("expected key=value, got: " + args[i]);
                System.exit(2);
            }
            overrides.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        ApacheKafka kafka = ApacheKafka.start(dataDir, overrides);
        Runtime.getRuntime().addShutdownHook(new Thread(kafka::close, "stop-kafka"));

        Path partial = readyFile.resolveSibling(readyFile.getFileName() + ".tmp");
        Files.writeString(partial, kafka.bootstrapServers(), StandardCharsets.UTF_8);
        Files.move(partial, readyFile, StandardCopyOption.ATOMIC_MOVE);
        new CountDownLatch(1).await();
    }
}

package io.tributary.benchmarks.harness;

import io.tributary.testkit.ApacheKafka;
import org.apache.kafka.common.security.auth.SecurityProtocol;

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
 * <pre>KafkaBrokerMain &lt;data dir&gt; &lt;ready file&gt; [--listener=SSL:&lt;port&gt; ...] [key=value ...]</pre>
 *
 * A {@code --listener} adds a listener named after its security protocol beside PLAINTEXT, on 127.0.0.1 at that port.
 * Once the broker answers Admin calls its bootstrap address is written to the ready file (atomically,
 * so a reader never sees half of it).
 */
public final class KafkaBrokerMain {
    private KafkaBrokerMain() {
    }

    /** The argument that adds a listener: {@code --listener=<security protocol>:<port>}. */
    static final String LISTENER_OPTION = "--listener=";

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length < 2) {
            System.err.println("usage: KafkaBrokerMain <data dir> <ready file> [--listener=SSL:<port> ...] [key=value ...]");
            System.exit(2);
        }
        Path dataDir = Path.of(args[0]);
        Path readyFile = Path.of(args[1]);
        Map<String, String> overrides = new LinkedHashMap<>();
        Map<SecurityProtocol, Integer> listeners = new LinkedHashMap<>();
        for (int i = 2; i < args.length; i++) {
            if (args[i].startsWith(LISTENER_OPTION)) {
                String[] protocolAndPort = args[i].substring(LISTENER_OPTION.length()).split(":", 2);
                listeners.put(SecurityProtocol.forName(protocolAndPort[0]), Integer.parseInt(protocolAndPort[1]));
                continue;
            }
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                System.err.println("expected key=value, got: " + args[i]);
                System.exit(2);
            }
            overrides.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        ApacheKafka kafka = ApacheKafka.start(dataDir, overrides, listeners);
        Runtime.getRuntime().addShutdownHook(new Thread(kafka::close, "stop-kafka"));

        Path partial = readyFile.resolveSibling(readyFile.getFileName() + ".tmp");
        Files.writeString(partial, kafka.bootstrapServers(), StandardCharsets.UTF_8);
        Files.move(partial, readyFile, StandardCopyOption.ATOMIC_MOVE);
        new CountDownLatch(1).await();
    }
}

package io.tributary.benchmarks.harness;

import io.tributary.testkit.FreePorts;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/** The brokers the harness knows how to start in a child JVM. */
public enum BrokerFlavor {
    /** Apache Kafka 4.4 in KRaft combined mode, through {@link KafkaBrokerMain}. */
    APACHE_KAFKA("Apache Kafka 4.4", "kafka") {
        @Override
        public BrokerLaunch launch(Path workDir, BrokerSettings settings) {
            Path readyFile = workDir.resolve("bootstrap.txt");
            List<String> arguments = new ArrayList<>(List.of(workDir.resolve(DATA_DIR).toString(), readyFile.toString()));
            settings.brokerProperties().forEach((key, value) -> arguments.add(key + "=" + value));
            return new BrokerLaunch(KafkaBrokerMain.class.getName(), arguments, () -> readIfPresent(readyFile));
        }
    },

    /** Tributary's broker with its embedded ZooKeeper, through its own main class. */
    TRIBUTARY("Tributary", "tributary") {
        private static final String MAIN_CLASS = "io.tributary.broker.TributaryServer";

        @Override
        public BrokerLaunch launch(Path workDir, BrokerSettings settings) throws IOException {
            String bootstrap = "127.0.0.1:" + FreePorts.next();
            Properties props = new Properties();
            props.putAll(settings.brokerProperties());
            props.put("listeners", "PLAINTEXT://" + bootstrap);
            props.put("log.dirs", workDir.resolve(DATA_DIR).toString());
            props.put("zookeeper.connect", "");
            props.put("zookeeper.embedded.port", Integer.toString(FreePorts.next()));
            Path config = workDir.resolve("server.properties");
            try (OutputStream out = Files.newOutputStream(config)) {
                props.store(out, "written by the benchmark harness");
            }
            return new BrokerLaunch(MAIN_CLASS, List.of(config.toString()), () -> Optional.of(bootstrap));
        }
    };

    /** The folder of a broker's work directory that holds all its data (logs, metadata). */
    public static final String DATA_DIR = "data";

    private final String displayName;
    private final String optionName;

    BrokerFlavor(String displayName, String optionName) {
        this.displayName = displayName;
        this.optionName = optionName;
    }

    /** How to start this broker with {@code settings}, keeping its files under {@code workDir}. */
    public abstract BrokerLaunch launch(Path workDir, BrokerSettings settings) throws IOException;

    public String displayName() {
        return displayName;
    }

    /** The name used on the command line ({@code --candidate=tributary}). */
    public String optionName() {
        return optionName;
    }

    public static BrokerFlavor fromOptionName(String name) {
        for (BrokerFlavor flavor : values()) {
            if (flavor.optionName.equals(name)) {
                return flavor;
            }
        }
        throw new IllegalArgumentException("unknown broker '" + name + "'; expected kafka or tributary");
    }

    private static Optional<String> readIfPresent(Path file) {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8).trim());
        } catch (NoSuchFileException notYet) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.tributary.benchmarks.harness;

import io.tributary.testkit.FreePorts;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.security.auth.SecurityProtocol;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;

/** The brokers the harness knows how to start in a child JVM. */
public enum BrokerFlavor {
    /**
     * Apache Kafka 4.4: alone in KRaft combined mode through {@link KafkaBrokerMain}; in a cluster,
     * one node per JVM through {@link KafkaNodeMain}.
     */
    APACHE_KAFKA("Apache Kafka 4.4", "kafka") {
        @Override
        public BrokerLaunch launch(Path workDir, BrokerSettings settings, OptionalInt sslPort) {
            Path readyFile = workDir.resolve("bootstrap.txt");
            List<String> arguments = new ArrayList<>(List.of(workDir.resolve(DATA_DIR).toString(), readyFile.toString()));
            sslPort.ifPresent(port -> arguments.add(KafkaBrokerMain.LISTENER_OPTION + SecurityProtocol.SSL.name + ":" + port));
            settings.brokerProperties().forEach((key, value) -> arguments.add(key + "=" + value));
            return new BrokerLaunch(KafkaBrokerMain.class.getName(), arguments, () -> readIfPresent(readyFile));
        }

        /** One KRaft controller (a single-voter quorum) and three brokers, all formatted with one cluster id. */
        @Override
        public ClusterLaunch launchCluster(Path workDir, BrokerSettings settings) throws IOException {
            String clusterId = Uuid.randomUuid().toString();
            int controllerId = settings.brokers();
            String controller = "127.0.0.1:" + FreePorts.next();
            Map<String, String> common = new LinkedHashMap<>(settings.brokerProperties());
            common.put("controller.quorum.voters", controllerId + "@" + controller);
            common.put("controller.listener.names", "CONTROLLER");
            common.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");

            Map<String, String> controllerProps = new LinkedHashMap<>(common);
            controllerProps.put("process.roles", "controller");
            controllerProps.put("node.id", Integer.toString(controllerId));
            controllerProps.put("listeners", "CONTROLLER://" + controller);
            NodeLaunch metadata = kafkaNode(workDir.resolve(METADATA_DIR), clusterId, controllerProps, controller);

            List<NodeLaunch> brokers = new ArrayList<>();
            for (int id = 0; id < settings.brokers(); id++) {
                String bootstrap = "127.0.0.1:" + FreePorts.next();
                Map<String, String> props = new LinkedHashMap<>(common);
                props.put("process.roles", "broker");
                props.put("node.id", Integer.toString(id));
                props.put("listeners", "PLAINTEXT://" + bootstrap);
                props.put("advertised.listeners", "PLAINTEXT://" + bootstrap);
                props.put("inter.broker.listener.name", "PLAINTEXT");
                brokers.add(kafkaNode(workDir.resolve(brokerDir(id)), clusterId, props, bootstrap));
            }
            return new ClusterLaunch(metadata, brokers);
        }

        private NodeLaunch kafkaNode(Path dir, String clusterId, Map<String, String> props, String address)
                throws IOException {
            Map<String, String> withData = new LinkedHashMap<>(props);
            withData.put("log.dirs", dir.resolve(DATA_DIR).toString());
            Path config = writeProperties(dir, withData);
            return new NodeLaunch(dir, new BrokerLaunch(KafkaNodeMain.class.getName(),
                    List.of(clusterId, config.toString()), () -> Optional.of(address)));
        }
    },

    /**
     * Tributary's broker through its own main class: alone with its embedded ZooKeeper; in a
     * cluster, registered in a standalone ZooKeeper server like {@code config/cluster/}.
     */
    TRIBUTARY("Tributary", "tributary") {
        private static final String MAIN_CLASS = "io.tributary.broker.TributaryServer";

        @Override
        public BrokerLaunch launch(Path workDir, BrokerSettings settings, OptionalInt sslPort) throws IOException {
            String bootstrap = "127.0.0.1:" + FreePorts.next();
            Map<String, String> props = new LinkedHashMap<>(settings.brokerProperties());
            props.put("listeners", "PLAINTEXT://" + bootstrap
                    + (sslPort.isPresent() ? "," + SecurityProtocol.SSL.name + "://127.0.0.1:" + sslPort.getAsInt() : ""));
            props.put("log.dirs", workDir.resolve(DATA_DIR).toString());
            props.put("zookeeper.connect", "");
            props.put("zookeeper.embedded.port", Integer.toString(FreePorts.next()));
            Path config = writeProperties(workDir, props);
            return new BrokerLaunch(MAIN_CLASS, List.of(config.toString()), () -> Optional.of(bootstrap));
        }

        /** A standalone ZooKeeper server and three brokers registered in it. */
        @Override
        public ClusterLaunch launchCluster(Path workDir, BrokerSettings settings) throws IOException {
            Path zookeeperDir = Files.createDirectories(workDir.resolve(METADATA_DIR));
            int zookeeperPort = FreePorts.next();
            String zookeeper = "127.0.0.1:" + zookeeperPort;
            Path zooCfg = zookeeperDir.resolve("zoo.cfg");
            Files.writeString(zooCfg, String.join("\n", "tickTime=2000",
                    "dataDir=" + Files.createDirectories(zookeeperDir.resolve(DATA_DIR)),
                    "clientPortAddress=127.0.0.1", "clientPort=" + zookeeperPort, "admin.enableServer=false", ""),
                    StandardCharsets.UTF_8);
            NodeLaunch metadata = new NodeLaunch(zookeeperDir, new BrokerLaunch(ZOOKEEPER_MAIN_CLASS,
                    List.of(zooCfg.toString()), () -> Optional.of(zookeeper)));

            List<NodeLaunch> brokers = new ArrayList<>();
            for (int id = 0; id < settings.brokers(); id++) {
                Path dir = workDir.resolve(brokerDir(id));
                String bootstrap = "127.0.0.1:" + FreePorts.next();
                Map<String, String> props = new LinkedHashMap<>(settings.brokerProperties());
                props.put("broker.id", Integer.toString(id));
                props.put("listeners", "PLAINTEXT://" + bootstrap);
                props.put("log.dirs", dir.resolve(DATA_DIR).toString());
                props.put("zookeeper.connect", zookeeper);
                Path config = writeProperties(dir, props);
                brokers.add(new NodeLaunch(dir, new BrokerLaunch(MAIN_CLASS, List.of(config.toString()),
                        () -> Optional.of(bootstrap))));
            }
            return new ClusterLaunch(metadata, brokers);
        }
    };

    /** The folder of a broker's work directory that holds all its data (logs, metadata). */
    public static final String DATA_DIR = "data";
    /** The folder of a cluster's work directory for its metadata node (ZooKeeper, KRaft controller). */
    public static final String METADATA_DIR = "metadata";
    private static final String ZOOKEEPER_MAIN_CLASS = "org.apache.zookeeper.server.ZooKeeperServerMain";

    private final String displayName;
    private final String optionName;

    BrokerFlavor(String displayName, String optionName) {
        this.displayName = displayName;
        this.optionName = optionName;
    }

    /** How to start this broker with {@code settings}, keeping its files under {@code workDir}. */
    public BrokerLaunch launch(Path workDir, BrokerSettings settings) throws IOException {
        return launch(workDir, settings, OptionalInt.empty());
    }

    /**
     * As {@link #launch(Path, BrokerSettings)}, with a listener named SSL on 127.0.0.1 at {@code sslPort} beside
     * PLAINTEXT if one is given; its {@code ssl.*} keys are in {@code settings}. The reported address stays PLAINTEXT's.
     */
    public abstract BrokerLaunch launch(Path workDir, BrokerSettings settings, OptionalInt sslPort) throws IOException;

    /**
     * How to start a cluster of {@code settings.brokers()} brokers plus the one metadata node they
     * need, each in its own folder of {@code workDir} ({@link #METADATA_DIR}, {@code broker-<id>}).
     * Both flavors keep metadata out of the brokers' JVMs, so that the brokers' CPU compares alike.
     */
    public abstract ClusterLaunch launchCluster(Path workDir, BrokerSettings settings) throws IOException;

    /** The folder of a cluster's work directory for broker {@code id}. */
    public static String brokerDir(int id) {
        return "broker-" + id;
    }

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

    /** Writes {@code props} to {@code dir/server.properties}, creating {@code dir}. */
    private static Path writeProperties(Path dir, Map<String, String> props) throws IOException {
        Properties properties = new Properties();
        properties.putAll(props);
        Path config = Files.createDirectories(dir).resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(config)) {
            properties.store(out, "written by the benchmark harness");
        }
        return config;
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

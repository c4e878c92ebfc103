package io.tributary.broker.cluster;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.zookeeper.server.DatadirCleanupManager;
import org.apache.zookeeper.server.ServerConfig;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/tributary-zookeeper <zookeeper.properties> [--override key=value]...}: a real ZooKeeper server (the
 * ZooKeeper the broker embeds) in the foreground until SIGTERM, which closes it. A configuration without
 * {@code server.N} lines runs one standalone server ({@link ZooKeeperServerMain}); with them, this node of an
 * ensemble ({@link QuorumPeerMain}). Exit codes: 143 after SIGTERM, 2 bad command line or configuration (one line
 * on stderr), 1 the server failed.
 */
@Command(name = "tributary-zookeeper", mixinStandardHelpOptions = true,
        description = "Run a ZooKeeper server for a Tributary cluster.")
public final class StandaloneZooKeeper implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(StandaloneZooKeeper.class);

    @Parameters(index = "0", paramLabel = "CONFIG", description = "ZooKeeper configuration (zoo.cfg format).")
    Path configFile;
    @Option(names = "--override", paramLabel = "KEY=VALUE", description = "Replaces or adds one key of CONFIG.")
    Map<String, String> overrides = new LinkedHashMap<>();

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new StandaloneZooKeeper());
        commandLine.setExecutionExceptionHandler((error, failed, parseResult) -> {
            if (error instanceof IllegalArgumentException) {
                failed.getErr().println("tributary-zookeeper: " + error.getMessage());
                return 2;
            }
            LOG.error("ZooKeeper failed", error);
            return 1;
        });
        commandLine.setParameterExceptionHandler((error, args) -> {
            error.getCommandLine().getErr().println("tributary-zookeeper: " + error.getMessage()
                    + " (see 'tributary-zookeeper --help')");
            return 2;
        });
        return commandLine;
    }

    @Override
    public Integer call() throws Exception {
        QuorumPeerConfig config = ZooKeeperServerProperties.load(configFile, overrides);
        // What QuorumPeerMain does for both modes: purge old snapshots and logs when autopurge.* ask for it.
        DatadirCleanupManager purge = new DatadirCleanupManager(config.getDataDir(), config.getDataLogDir(),
                config.getSnapRetainCount(), config.getPurgeInterval());
        purge.start();
        try {
            if (config.isDistributed()) {
                runEnsembleMember(config);
            } else {
                runStandalone(config);
            }
        } finally {
            purge.shutdown();
        }
        return 0;
    }

    private static void runStandalone(QuorumPeerConfig config) throws Exception {
        ServerConfig serverConfig = new ServerConfig();
        serverConfig.readFrom(config);
        ZooKeeperServerMain server = new ZooKeeperServerMain() {
            @Override
            protected void serverStarted() {
                LOG.info("ZooKeeper (standalone) listening on {}, data in {}", describe(config), config.getDataDir());
            }
        };
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "zookeeper-shutdown"));
        server.runFromConfig(serverConfig);
    }

    private static void runEnsembleMember(QuorumPeerConfig config) throws Exception {
        LOG.info("ZooKeeper server {} of an ensemble of {} starting on {}, data in {}", config.getServerId(),
                config.getServers().size(), describe(config), config.getDataDir());
        QuorumPeerMain peer = new QuorumPeerMain();
        Runtime.getRuntime().addShutdownHook(new Thread(peer::close, "zookeeper-shutdown"));
        peer.runFromConfig(config);
    }

    private static String describe(QuorumPeerConfig config) {
        return config.getClientPortAddress() == null ? "(no plaintext client port)"
                : config.getClientPortAddress().getAddress().getHostAddress() + ":" + config.getClientPortAddress().getPort();
    }
}

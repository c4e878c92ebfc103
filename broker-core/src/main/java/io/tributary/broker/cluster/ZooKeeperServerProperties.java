package io.tributary.broker.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig.ConfigException;

/**
 * A ZooKeeper server configuration ({@code zoo.cfg} format) with {@code --override}s applied, checked before anything
 * starts. ZooKeeper itself turns any key it does not know into a {@code zookeeper.<key>} system property and so
 * accepts every typo silently; here a key must be one of {@link QuorumPeerConfig}'s own or one of the
 * {@code zookeeper.*} system properties ZooKeeper 3.9's administrator's guide documents.
 */
public final class ZooKeeperServerProperties {
    /** Keys {@link QuorumPeerConfig#parseProperties} reads itself. */
    private static final Set<String> CONFIG_KEYS = Set.of(
            "dataDir", "dataLogDir", "clientPort", "clientPortAddress", "secureClientPort", "secureClientPortAddress",
            "clientPortListenBacklog", "observerMasterPort", "tickTime", "maxClientCnxns", "minSessionTimeout",
            "maxSessionTimeout", "initLimit", "syncLimit", "connectToLearnerMasterLimit", "electionAlg",
            "quorumListenOnAllIPs", "peerType", "syncEnabled", "dynamicConfigFile", "autopurge.snapRetainCount",
            "autopurge.purgeInterval", "standaloneEnabled", "reconfigEnabled", "sslQuorum", "portUnification",
            "sslQuorumReloadCertFiles", "localSessionsEnabled", "localSessionsUpgradingEnabled", "oraclePath",
            "quorum.auth.enableSasl", "quorum.auth.learnerRequireSasl", "quorum.auth.serverRequireSasl",
            "quorum.auth.learner.saslLoginContext", "quorum.auth.server.saslLoginContext",
            "quorum.auth.kerberos.servicePrincipal", "quorum.cnxn.threads.size", "multiAddress.enabled",
            "multiAddress.reachabilityCheckEnabled", "multiAddress.reachabilityCheckTimeoutMs",
            "jvm.pause.monitor", "jvm.pause.info-threshold.ms", "jvm.pause.warn-threshold.ms", "jvm.pause.sleep.time.ms",
            "metricsProvider.className");
    /** Keys ZooKeeper reads as {@code zookeeper.<key>} system properties (administrator's guide, 3.9). */
    private static final Set<String> SYSTEM_PROPERTY_KEYS = Set.of(
            "globalOutstandingLimit", "preAllocSize", "snapCount", "commitLogCount", "snapSizeLimitInKb",
            "txnLogSizeLimitInKb", "maxCnxns", "fsync.warningthresholdms", "maxResponseCacheSize",
            "maxGetChildrenResponseCacheSize", "extendedTypesEnabled", "emulate353TTLNodes", "serverCnxnFactory",
            "snapshot.trust.empty", "snapshot.compression.method", "audit.enable", "largeRequestMaxBytes",
            "largeRequestThreshold", "throttledOpWaitTime", "learner.closeSocketAsync", "leader.closeSocketAsync",
            "forward_learner_requests_to_commit_processor_disabled", "enforceQuota", "requestThrottleLimit",
            "requestThrottleStallTime", "requestThrottleDropStale", "requestStaleLatencyCheck",
            "requestStaleConnectionCheck", "advancedFlowControlEnabled", "enableEagerACLCheck",
            "maxConcurrentSnapSyncs", "maxConcurrentDiffSyncs", "digest.enabled", "closeSessionTxn.enabled",
            "flushDelay", "maxWriteQueuePollTime", "maxBatchSize", "leaderServes", "cnxTimeout", "quorumCnxnTimeoutMs",
            "4lw.commands.whitelist", "tcpKeepAlive", "clientTcpKeepAlive", "electionPortBindRetry",
            "observer.reconnectDelayMs", "observer.election.DelayMs", "skipACL", "superUser",
            "sessionRequireClientSASLAuth", "enforce.auth.enabled", "enforce.auth.schemes", "ensembleAuthName",
            "client.portUnification", "watchManagerName", "watcherCleanThreshold", "watcherCleanIntervalInSeconds",
            "watcherCleanThreadsNum", "maxInProcessingDeadWatchers", "fips-mode", "serializeLastProcessedZxid.enabled",
            "X509AuthenticationProvider.superUser");
    /** Families of keys, each documented as a group (TLS, admin server, auth providers, throttles, threads). */
    private static final List<String> KEY_PREFIXES = List.of(
            "ssl.", "admin.", "authProvider.", "DigestAuthenticationProvider.", "metricsProvider.", "connection_throttle_",
            "request_throttler.", "nio.", "netty.", "commitProcessor.", "messageTracker.", "fastleader.",
            "learner.", "leader.");
    /** Ensemble members and their voting groups and weights: {@code server.1}, {@code group.1}, {@code weight.1}. */
    private static final Pattern NUMBERED_KEY = Pattern.compile("(server|group|weight)\\.\\d+");

    private ZooKeeperServerProperties() {
    }

    /**
     * Reads {@code file}, applies {@code overrides} and parses the result.
     *
     * @throws IllegalArgumentException naming the file, the key or the value that is wrong
     */
    public static QuorumPeerConfig load(Path file, Map<String, String> overrides) {
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            props.load(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e, e);
        }
        overrides.forEach((key, value) -> props.setProperty(key.trim(), value.trim()));
        Set<String> unknown = new TreeSet<>();
        for (String key : props.stringPropertyNames()) {
            if (!isKnown(key)) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown ZooKeeper configuration key" + (unknown.size() > 1 ? "s " : " ")
                    + String.join(", ", unknown) + " in " + file);
        }
        QuorumPeerConfig config = new QuorumPeerConfig();
        try {
            config.parseProperties(props);
        } catch (ConfigException | IOException | IllegalArgumentException e) {
            String problem = e instanceof NumberFormatException ? notANumber(props, e.getMessage()) : e.getMessage();
            throw new IllegalArgumentException("invalid ZooKeeper configuration " + file + ": " + problem, e);
        }
        return config;
    }

    /** ZooKeeper's NumberFormatException names the text ({@code For input string: "x"}), not the key: find it. */
    private static String notANumber(Properties props, String message) {
        return props.stringPropertyNames().stream().sorted()
                .filter(key -> message != null && message.contains("\"" + props.getProperty(key).trim() + "\""))
                .findFirst().map(key -> key + " must be a number, not '" + props.getProperty(key) + "'")
                .orElse("a number is expected: " + message);
    }

    static boolean isKnown(String key) {
        return CONFIG_KEYS.contains(key) || SYSTEM_PROPERTY_KEYS.contains(key) || NUMBERED_KEY.matcher(key).matches()
                || KEY_PREFIXES.stream().anyMatch(key::startsWith);
    }
}

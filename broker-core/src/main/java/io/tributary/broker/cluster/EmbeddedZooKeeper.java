package io.tributary.broker.cluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.security.auth.login.Configuration;
import org.apache.zookeeper.server.AuthenticationHelper;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperSaslServer;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.auth.ProviderRegistry;
import org.apache.zookeeper.server.auth.SASLAuthenticationProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real, single-node ZooKeeper server in the broker's JVM, for brokers started without
 * {@code zookeeper.connect}. Binds 127.0.0.1 only; port 0 picks a free port.
 *
 * <p>When the JVM's JAAS configuration has ZooKeeper's server section ({@code Server}, or the one
 * {@code zookeeper.sasl.serverconfig} names), the server authenticates clients with SASL (the section's
 * {@code user_<name>="<password>"} accounts, DIGEST-MD5) and serves nobody who has not logged in: what
 * {@code authProvider.sasl} and {@code enforce.auth.schemes=sasl} do for a standalone server. ZooKeeper reads those
 * settings only as system properties; they are set here unless the operator set them already.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
    private static final int TICK_MS = 500;
    private static final int MAX_CLIENT_CONNECTIONS = 100;
    private static final String SASL_PROVIDER_PROPERTY = ProviderRegistry.AUTHPROVIDER_PROPERTY_PREFIX + "sasl";
    private static final Logger log = LoggerFactory.getLogger(EmbeddedZooKeeper.class);

    private final ZooKeeperServer server;
    private final ServerCnxnFactory connections;

    private EmbeddedZooKeeper(ZooKeeperServer server, ServerCnxnFactory connections) {
        this.server = server;
        this.connections = connections;
    }

    /** Starts a server whose snapshots and transaction log live in {@code dataDir}. */
    public static EmbeddedZooKeeper start(Path dataDir, int port) throws IOException {
        Files.createDirectories(dataDir);
        if (hasServerLogin()) {
            requireSaslLogins();
        }
        ZooKeeperServer server = new ZooKeeperServer(dataDir.toFile(), dataDir.toFile(), TICK_MS);
        server.setMinSessionTimeout(2 * TICK_MS);
        server.setMaxSessionTimeout(120_000);
        ServerCnxnFactory connections = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", port), MAX_CLIENT_CONNECTIONS);
        try {
            connections.startup(server);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connections.shutdown();
            throw new IOException("interrupted while starting ZooKeeper", e);
        }
        return new EmbeddedZooKeeper(server, connections);
    }

    private static boolean hasServerLogin() {
        String section = System.getProperty(ZooKeeperSaslServer.LOGIN_CONTEXT_NAME_KEY, ZooKeeperSaslServer.DEFAULT_LOGIN_CONTEXT_NAME);
        try {
            return Configuration.getConfiguration().getAppConfigurationEntry(section) != null;
        } catch (SecurityException e) {
            return false; // no JAAS configuration at all
        }
    }

    private static void requireSaslLogins() {
        System.getProperties().putIfAbsent(SASL_PROVIDER_PROPERTY, SASLAuthenticationProvider.class.getName());
        ProviderRegistry.addOrUpdateProvider(SASL_PROVIDER_PROPERTY);
        System.getProperties().putIfAbsent(AuthenticationHelper.ENFORCE_AUTH_ENABLED, "true");
        System.getProperties().putIfAbsent(AuthenticationHelper.ENFORCE_AUTH_SCHEMES, AuthenticationHelper.SASL_AUTH_SCHEME);
        log.info("the embedded ZooKeeper serves SASL logins only ({}={}, {}={})", AuthenticationHelper.ENFORCE_AUTH_ENABLED,
                System.getProperty(AuthenticationHelper.ENFORCE_AUTH_ENABLED), AuthenticationHelper.ENFORCE_AUTH_SCHEMES,
                System.getProperty(AuthenticationHelper.ENFORCE_AUTH_SCHEMES));
    }

    public int port() {
        return connections.getLocalPort();
    }

    public String connectString() {
        return "127.0.0.1:" + port();
    }

    @Override
    public void close() {
        connections.shutdown();
        server.shutdown();
    }
}

package io.tributary.broker.cluster;

import java.util.Optional;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import org.apache.zookeeper.Environment;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.X509Util;

/**
 * Whether the ZooKeeper clients of this JVM log in with SASL, by ZooKeeper's own rule: the JAAS configuration
 * ({@code -Djava.security.auth.login.config=FILE}) has a section named by {@code zookeeper.sasl.clientconfig}
 * ({@code Client} by default), and {@code zookeeper.sasl.client} is not false. Kafka's brokers and tools decided the
 * same way (JaasUtils.isZkSaslEnabled); like them, a section with SASL turned off is a contradiction, refused.
 */
public final class ZooKeeperLogin {
    private ZooKeeperLogin() {
    }

    /**
     * The JAAS section ZooKeeper clients log in with, empty when they do not use SASL.
     *
     * @throws IllegalStateException if the JAAS configuration cannot be read, or has the section while
     *                               {@code zookeeper.sasl.client=false}
     */
    public static Optional<String> section() {
        ZKClientConfig client = clientConfig();
        String section = sectionName(client);
        AppConfigurationEntry[] entries;
        try {
            entries = Configuration.getConfiguration().getAppConfigurationEntry(section);
        } catch (SecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot read the JAAS configuration " + System.getProperty(Environment.JAAS_CONF_KEY)
                    + ": " + e.getMessage(), e);
        }
        if (entries == null) {
            return Optional.empty();
        }
        if (!client.isSaslClientEnabled()) {
            throw new IllegalStateException("the JAAS configuration " + System.getProperty(Environment.JAAS_CONF_KEY) + " has a "
                    + section + " section for ZooKeeper, but " + ZKClientConfig.ENABLE_CLIENT_SASL_KEY + "=false turns SASL off");
        }
        return Optional.of(section);
    }

    /**
     * The settings of our ZooKeeper clients: ZooKeeper's own {@code zookeeper.*} system properties, with FIPS mode off
     * unless {@code -Dzookeeper.fips-mode=true} asks for it. ZooKeeper 3.9's client refuses DIGEST-MD5, the mechanism of
     * its password logins (DigestLoginModule), in FIPS mode, which it turns on by default and never reads from the
     * system properties.
     */
    public static ZKClientConfig clientConfig() {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(X509Util.FIPS_MODE_PROPERTY, System.getProperty(X509Util.FIPS_MODE_PROPERTY, "false"));
        return config;
    }

    private static String sectionName(ZKClientConfig client) {
        return client.getProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, ZKClientConfig.LOGIN_CONTEXT_NAME_KEY_DEFAULT);
    }

    /** What a JVM without the login lacks, for messages: the section it would need, and in which file. */
    public static String describeMissing() {
        String file = System.getProperty(Environment.JAAS_CONF_KEY);
        return "no " + sectionName(clientConfig()) + " section in "
                + (file == null ? "a JAAS configuration (none given: -D" + Environment.JAAS_CONF_KEY + "=FILE)" : "the JAAS configuration " + file);
    }
}

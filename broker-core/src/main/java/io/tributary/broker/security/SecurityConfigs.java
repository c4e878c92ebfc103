package io.tributary.broker.security;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.config.internals.BrokerSecurityConfigs;
import org.apache.kafka.common.security.plain.internals.PlainSaslServer;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;

/**
 * The broker's security keys, with Kafka's names and meaning: the listener keys, the {@code ssl.*} keys (defined by
 * kafka-clients' {@link SslConfigs}, read by its {@code SslFactory}) and the SASL keys. Every {@code ssl.*} and
 * {@code sasl.*} key may also be given per listener as {@code listener.name.<listener>.<key>}, and the JAAS
 * configuration and the session lifetime per listener and mechanism as
 * {@code listener.name.<listener>.<mechanism>.sasl.jaas.config} and {@code ...<mechanism>.connections.max.reauth.ms}.
 * A misspelt security key is an error, not a silently insecure broker.
 */
public final class SecurityConfigs {
    public static final String SASL_ENABLED_MECHANISMS = BrokerSecurityConfigs.SASL_ENABLED_MECHANISMS_CONFIG;
    public static final String SASL_MECHANISM_INTER_BROKER_PROTOCOL = BrokerSecurityConfigs.SASL_MECHANISM_INTER_BROKER_PROTOCOL_CONFIG;
    public static final String SASL_SERVER_MAX_RECEIVE_SIZE = BrokerSecurityConfigs.SASL_SERVER_MAX_RECEIVE_SIZE_CONFIG;
    public static final String CONNECTIONS_MAX_REAUTH_MS = BrokerSecurityConfigs.CONNECTIONS_MAX_REAUTH_MS_CONFIG;
    public static final String SSL_CLIENT_AUTH = BrokerSecurityConfigs.SSL_CLIENT_AUTH_CONFIG;
    public static final String SSL_PRINCIPAL_MAPPING_RULES = BrokerSecurityConfigs.SSL_PRINCIPAL_MAPPING_RULES_CONFIG;
    public static final String SSL_ALLOW_DN_CHANGES = BrokerSecurityConfigs.SSL_ALLOW_DN_CHANGES_CONFIG;
    public static final String SSL_ALLOW_SAN_CHANGES = BrokerSecurityConfigs.SSL_ALLOW_SAN_CHANGES_CONFIG;
    public static final String AUTHORIZER_CLASS_NAME = "authorizer.class.name";
    public static final String SUPER_USERS = "super.users";
    public static final String ALLOW_EVERYONE_IF_NO_ACL_FOUND = "allow.everyone.if.no.acl.found";
    public static final String DELEGATION_TOKEN_SECRET_KEY = "delegation.token.secret.key";
    /** Kafka's name before 2.8 for {@link #DELEGATION_TOKEN_SECRET_KEY}, still read when that is not set. */
    public static final String DELEGATION_TOKEN_MASTER_KEY = "delegation.token.master.key";
    public static final String DELEGATION_TOKEN_MAX_LIFETIME_MS = "delegation.token.max.lifetime.ms";
    public static final String DELEGATION_TOKEN_EXPIRY_TIME_MS = "delegation.token.expiry.time.ms";
    public static final String DELEGATION_TOKEN_EXPIRY_CHECK_INTERVAL_MS = "delegation.token.expiry.check.interval.ms";
    /** The mechanisms this broker implements. */
    public static final List<String> SUPPORTED_MECHANISMS = List.of(PlainSaslServer.PLAIN_MECHANISM,
            ScramMechanism.SCRAM_SHA_256.mechanismName(), ScramMechanism.SCRAM_SHA_512.mechanismName());

    private static final Pattern LISTENER_PREFIX = Pattern.compile("^listener\\.name\\.([^.]+)\\.(.+)$");
    /** The keys that may also be given per listener and mechanism: listener.name.<listener>.<mechanism>.<key>. */
    public static final List<String> PER_MECHANISM_KEYS = List.of(SaslConfigs.SASL_JAAS_CONFIG, CONNECTIONS_MAX_REAUTH_MS);
    private static final Pattern PER_MECHANISM = Pattern.compile("^([^.]+)\\.("
            + String.join("|", PER_MECHANISM_KEYS.stream().map(Pattern::quote).toList()) + ")$");

    private SecurityConfigs() {
    }

    /** Adds the listener, SSL and SASL keys to {@code def}. */
    public static ConfigDef define(ConfigDef def) {
        SslConfigs.addClientSslSupport(def);
        return def
                .define(Listeners.ADVERTISED_LISTENERS, Type.STRING, "", Importance.HIGH,
                        "Listeners registered for clients and other brokers to connect to, NAME://host:port,... (each "
                                + "name one of listeners). Empty: the listeners themselves. Port 0 advertises the port "
                                + "the listener bound.")
                .define(Listeners.LISTENER_SECURITY_PROTOCOL_MAP, Type.STRING, Listeners.DEFAULT_PROTOCOL_MAP, Importance.HIGH,
                        "Security protocol of each listener name, NAME:PROTOCOL,... with PLAINTEXT, SSL, SASL_PLAINTEXT "
                                + "or SASL_SSL.")
                .define(Listeners.INTER_BROKER_LISTENER_NAME, Type.STRING, "", Importance.HIGH,
                        "The listener replication connects to on the other brokers. Empty: the listener named "
                                + "PLAINTEXT, or the only listener there is.")
                .define(SSL_CLIENT_AUTH, Type.STRING, BrokerSecurityConfigs.SSL_CLIENT_AUTH_DEFAULT,
                        ConfigDef.ValidString.in("none", "requested", "required"), Importance.MEDIUM,
                        "Whether TLS listeners ask clients for a certificate: none, requested (the DN of one given is "
                                + "the principal) or required (mutual TLS).")
                .define(SSL_PRINCIPAL_MAPPING_RULES, Type.STRING, BrokerSecurityConfigs.DEFAULT_SSL_PRINCIPAL_MAPPING_RULES,
                        Importance.LOW, "Rules that map a client certificate's distinguished name to a principal name "
                                + "(Kafka's syntax); DEFAULT keeps the whole DN.")
                .define(SSL_ALLOW_DN_CHANGES, Type.BOOLEAN, BrokerSecurityConfigs.DEFAULT_SSL_ALLOW_DN_CHANGES_VALUE, Importance.LOW,
                        "Whether a keystore reloaded because its file changed may hold a certificate with another "
                                + "distinguished name; if not, such a keystore is refused and the one loaded before stays.")
                .define(SSL_ALLOW_SAN_CHANGES, Type.BOOLEAN, BrokerSecurityConfigs.DEFAULT_SSL_ALLOW_SAN_CHANGES_VALUE, Importance.LOW,
                        "Whether a keystore reloaded because its file changed may hold a certificate with other subject "
                                + "alternative names; if not, such a keystore is refused and the one loaded before stays.")
                .define(SASL_ENABLED_MECHANISMS, Type.LIST, String.join(",", SUPPORTED_MECHANISMS.subList(1, 3)),
                        ConfigDef.ValidList.in(SUPPORTED_MECHANISMS.toArray(String[]::new)), Importance.MEDIUM,
                        "SASL mechanisms SASL listeners accept. PLAIN checks the user_<name>=\"<password>\" options of "
                                + "the listener's JAAS configuration; SCRAM the credentials in ZooKeeper (/config/users).")
                .define(SASL_MECHANISM_INTER_BROKER_PROTOCOL, Type.STRING, ScramMechanism.SCRAM_SHA_512.mechanismName(),
                        ConfigDef.ValidString.in(SUPPORTED_MECHANISMS.toArray(String[]::new)), Importance.MEDIUM,
                        "SASL mechanism brokers replicate with when the inter-broker listener is SASL; its "
                                + "credentials are the username and password of that listener's JAAS configuration.")
                .define(CONNECTIONS_MAX_REAUTH_MS, Type.LONG, 0L, ConfigDef.Range.atLeast(0), Importance.MEDIUM,
                        "Above 0: how long a SASL login lasts (KIP-368). Clients (kafka-clients 2.2 and later) learn it when "
                                + "they authenticate and re-authenticate on the same connection before it ends, with the same "
                                + "mechanism, as the same principal and with credentials still valid (a deleted user is refused "
                                + "then); a connection whose login has ended is closed on its next request. 0: a login lasts as "
                                + "long as its connection. May be set per listener and mechanism, e.g. "
                                + "listener.name.sasl_ssl.scram-sha-512." + CONNECTIONS_MAX_REAUTH_MS + ".")
                .define(SASL_SERVER_MAX_RECEIVE_SIZE, Type.INT, BrokerSecurityConfigs.DEFAULT_SASL_SERVER_MAX_RECEIVE_SIZE,
                        ConfigDef.Range.atLeast(1), Importance.LOW,
                        "Largest frame a connection may send before it has authenticated; a larger one closes it.")
                .define(AUTHORIZER_CLASS_NAME, Type.STRING, "", ConfigDef.LambdaValidator.with(SecurityConfigs::validateAuthorizer,
                        () -> "empty, " + AclAuthorizer.CLASS_NAME + " or " + AclAuthorizer.KAFKA_ZOOKEEPER_CLASS_NAME), Importance.HIGH,
                        "The authorizer: " + AclAuthorizer.CLASS_NAME + " checks every request against the ACLs in ZooKeeper "
                                + "(managed with kafka-acls), as Kafka's; " + AclAuthorizer.KAFKA_ZOOKEEPER_CLASS_NAME
                                + " names the same one. Empty: no authorization, every client may do anything.")
                .define(SUPER_USERS, Type.STRING, "", ConfigDef.LambdaValidator.with(SecurityConfigs::validateSuperUsers,
                        () -> "principals separated by semicolons"), Importance.MEDIUM,
                        "Principals the authorizer allows everything without ACLs, separated by semicolons "
                                + "(User:admin;User:broker). The brokers' own principal belongs here: replication needs it.")
                .define(ALLOW_EVERYONE_IF_NO_ACL_FOUND, Type.BOOLEAN, false, Importance.MEDIUM,
                        "Whether the authorizer allows an operation on a resource that no ACL matches at all (for any "
                                + "principal). False: such a resource is refused to everyone but the super users.")
                .define(DELEGATION_TOKEN_SECRET_KEY, Type.PASSWORD, null, Importance.MEDIUM,
                        "The secret every broker signs delegation tokens with (HmacSHA512 of the token id); the same on "
                                + "all brokers. Delegation tokens are enabled only when it is set.")
                .define(DELEGATION_TOKEN_MASTER_KEY, Type.PASSWORD, null, Importance.LOW,
                        "Deprecated name of " + DELEGATION_TOKEN_SECRET_KEY + ", read only when that is not set.")
                .define(DELEGATION_TOKEN_MAX_LIFETIME_MS, Type.LONG, 7 * 24 * 3_600_000L, ConfigDef.Range.atLeast(1), Importance.MEDIUM,
                        "The longest a delegation token lives, renewals included; a token asks for at most this much.")
                .define(DELEGATION_TOKEN_EXPIRY_TIME_MS, Type.LONG, 24 * 3_600_000L, ConfigDef.Range.atLeast(1), Importance.MEDIUM,
                        "How long a delegation token lives after its creation or a renewal that names no period.")
                .define(DELEGATION_TOKEN_EXPIRY_CHECK_INTERVAL_MS, Type.LONG, 3_600_000L, ConfigDef.Range.atLeast(1), Importance.LOW,
                        "How often each broker deletes the expired delegation tokens from ZooKeeper.");
    }

    private static void validateAuthorizer(String key, Object value) {
        String name = ((String) value).trim();
        if (!name.isEmpty() && !name.equals(AclAuthorizer.CLASS_NAME) && !name.equals(AclAuthorizer.KAFKA_ZOOKEEPER_CLASS_NAME)) {
            throw new ConfigException(key, value, "unknown authorizer; Tributary's is " + AclAuthorizer.CLASS_NAME);
        }
    }

    private static void validateSuperUsers(String key, Object value) {
        try {
            AclAuthorizer.parseSuperUsers((String) value);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(key, value, "expected principals such as User:admin separated by semicolons: " + e.getMessage());
        }
    }

    /**
     * Rejects {@code ssl.*} and {@code sasl.*} keys (plain or per listener) that the broker does not know, and
     * per-listener keys of listeners that do not exist.
     */
    public static void rejectUnknown(Map<String, ?> originals, Set<String> defined, Listeners listeners) {
        for (String key : originals.keySet()) {
            String name = key;
            Matcher perListener = LISTENER_PREFIX.matcher(key);
            if (perListener.matches()) {
                String listener = perListener.group(1);
                if (listeners.bound().stream().noneMatch(l -> l.name().value().toLowerCase(Locale.ROOT).equals(listener))) {
                    throw new ConfigException(key, "(hidden)", "there is no listener named " + listener);
                }
                name = perListener.group(2);
                Matcher perMechanism = PER_MECHANISM.matcher(name);
                if (perMechanism.matches()) {
                    String mechanism = perMechanism.group(1).toUpperCase(Locale.ROOT);
                    if (!SUPPORTED_MECHANISMS.contains(mechanism)) {
                        throw new ConfigException(key, "(hidden)", "unsupported SASL mechanism " + mechanism
                                + "; supported: " + SUPPORTED_MECHANISMS);
                    }
                    if (!perMechanism.group(1).equals(mechanism.toLowerCase(Locale.ROOT))) {
                        throw new ConfigException(key, "(hidden)", "the mechanism in this key is read in lower case, as in "
                                + "Kafka: listener.name." + perListener.group(1) + "." + mechanism.toLowerCase(Locale.ROOT) + "."
                                + perMechanism.group(2));
                    }
                    continue;
                }
            }
            if ((name.startsWith("ssl.") || name.startsWith("sasl.")) && !defined.contains(name)) {
                throw new ConfigException(key, "(hidden)", "unknown security key: the broker would ignore it");
            }
        }
    }
}

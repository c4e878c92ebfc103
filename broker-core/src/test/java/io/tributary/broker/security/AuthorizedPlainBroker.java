package io.tributary.broker.security;

import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Settings for brokers with the authorizer on and one SASL_PLAINTEXT listener whose PLAIN users are named in the
 * test, each with the password {@code <name>-secret}; {@code admin} is the brokers' own login and the super user.
 */
final class AuthorizedPlainBroker {
    private static final String PLAIN_LOGIN = "org.apache.kafka.common.security.plain.PlainLoginModule required ";

    private AuthorizedPlainBroker() {
    }

    static Map<String, String> settings(String... users) {
        Map<String, String> settings = new HashMap<>();
        settings.put("listeners", "SASL_PLAINTEXT://127.0.0.1:0");
        settings.put("inter.broker.listener.name", "SASL_PLAINTEXT");
        settings.put("sasl.enabled.mechanisms", "PLAIN");
        settings.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
        settings.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", PLAIN_LOGIN + "username=\"admin\" password=\"admin-secret\" "
                + Stream.concat(Stream.of("admin"), Stream.of(users)).map(user -> "user_" + user + "=\"" + user + "-secret\"")
                        .collect(Collectors.joining(" ")) + ";");
        settings.put("authorizer.class.name", "io.tributary.broker.security.AclAuthorizer");
        settings.put("super.users", "User:admin");
        return settings;
    }

    /** A kafka-clients client's settings to log in as {@code user}. */
    static Map<String, Object> user(String user) {
        return Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN",
                "sasl.jaas.config", PLAIN_LOGIN + "username=\"" + user + "\" password=\"" + user + "-secret\";");
    }
}

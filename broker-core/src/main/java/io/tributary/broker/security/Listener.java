package io.tributary.broker.security;

import java.util.Locale;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * One named listener: what it binds (or, advertised, what clients are told) and how it is secured. An empty host
 * binds every interface, as in Kafka.
 */
public record Listener(ListenerName name, SecurityProtocol protocol, String host, int port) {
    /** Kafka's per-listener override prefix: {@code listener.name.<lower-case name>.}. */
    public String configPrefix() {
        return "listener.name." + name.value().toLowerCase(Locale.ROOT) + ".";
    }

    public boolean tls() {
        return protocol == SecurityProtocol.SSL || protocol == SecurityProtocol.SASL_SSL;
    }

    public boolean sasl() {
        return protocol == SecurityProtocol.SASL_PLAINTEXT || protocol == SecurityProtocol.SASL_SSL;
    }

    /** As written in {@code listeners} and in a broker registration. */
    public String uri() {
        return name.value() + "://" + host + ":" + port;
    }
}

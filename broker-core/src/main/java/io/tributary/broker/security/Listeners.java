package io.tributary.broker.security;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * The broker's listeners as Kafka's keys define them: {@code listeners} (what is bound), {@code advertised.listeners}
 * (what clients and other brokers are told; each name one of {@code listeners}, the same address if absent),
 * {@code listener.security.protocol.map} (name to protocol; by default each protocol's name maps to itself) and
 * {@code inter.broker.listener.name} (the listener replication uses). Immutable.
 */
public final class Listeners {
    public static final String LISTENERS = "listeners";
    public static final String ADVERTISED_LISTENERS = "advertised.listeners";
    public static final String LISTENER_SECURITY_PROTOCOL_MAP = "listener.security.protocol.map";
    public static final String INTER_BROKER_LISTENER_NAME = "inter.broker.listener.name";
    public static final String DEFAULT_PROTOCOL_MAP = "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL";

    private final List<Listener> bound;
    private final Map<ListenerName, Listener> advertised;
    private final ListenerName interBroker;

    private Listeners(List<Listener> bound, Map<ListenerName, Listener> advertised, ListenerName interBroker) {
        this.bound = List.copyOf(bound);
        this.advertised = advertised;
        this.interBroker = interBroker;
    }

    /**
     * @param interBrokerName empty: the listener named PLAINTEXT if there is one (Kafka's default), else the only
     *                        listener; with several listeners and none named PLAINTEXT it must be given
     * @throws ConfigException naming the key that is wrong
     */
    public static Listeners parse(String listeners, String advertisedListeners, String protocolMap, String interBrokerName) {
        Map<ListenerName, SecurityProtocol> protocols = protocolMap(protocolMap);
        List<Listener> bound = parseList(LISTENERS, listeners, protocols);
        if (bound.isEmpty()) {
            throw new ConfigException(LISTENERS, listeners, "at least one listener is needed");
        }
        Map<ListenerName, Listener> byName = new LinkedHashMap<>();
        for (Listener listener : bound) {
            if (byName.put(listener.name(), listener) != null) {
                throw new ConfigException(LISTENERS, listeners, "listener " + listener.name().value() + " is named twice");
            }
        }
        Map<ListenerName, Listener> advertised = new LinkedHashMap<>(byName);
        if (!advertisedListeners.isBlank()) {
            advertised.clear();
            for (Listener listener : parseList(ADVERTISED_LISTENERS, advertisedListeners, protocols)) {
                if (!byName.containsKey(listener.name())) {
                    throw new ConfigException(ADVERTISED_LISTENERS, advertisedListeners,
                            "listener " + listener.name().value() + " is not one of " + LISTENERS);
                }
                advertised.put(listener.name(), listener);
            }
        }
        ListenerName interBroker = interBrokerListener(interBrokerName, byName, advertised);
        return new Listeners(bound, advertised, interBroker);
    }

    private static ListenerName interBrokerListener(String configured, Map<ListenerName, Listener> byName,
                                                    Map<ListenerName, Listener> advertised) {
        ListenerName name;
        if (!configured.isBlank()) {
            name = ListenerName.normalised(configured.trim());
        } else if (byName.containsKey(ListenerName.normalised("PLAINTEXT"))) {
            name = ListenerName.normalised("PLAINTEXT");
        } else if (byName.size() == 1) {
            name = byName.keySet().iterator().next();
        } else {
            throw new ConfigException(INTER_BROKER_LISTENER_NAME, configured,
                    "several listeners and none named PLAINTEXT: say which one replication uses");
        }
        if (!advertised.containsKey(name)) {
            throw new ConfigException(INTER_BROKER_LISTENER_NAME, configured,
                    "must name one of the advertised listeners " + advertised.keySet().stream().map(ListenerName::value).toList());
        }
        return name;
    }

    private static Map<ListenerName, SecurityProtocol> protocolMap(String value) {
        Map<ListenerName, SecurityProtocol> map = new LinkedHashMap<>();
        for (String entry : value.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            int colon = entry.indexOf(':');
            if (colon <= 0) {
                throw new ConfigException(LISTENER_SECURITY_PROTOCOL_MAP, value, "expected NAME:PROTOCOL pairs, got '" + entry + "'");
            }
            String protocol = entry.substring(colon + 1).trim().toUpperCase(Locale.ROOT);
            if (!SecurityProtocol.names().contains(protocol)) {
                throw new ConfigException(LISTENER_SECURITY_PROTOCOL_MAP, value, "unknown security protocol '" + protocol
                        + "'; one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL");
            }
            map.put(ListenerName.normalised(entry.substring(0, colon).trim()), SecurityProtocol.forName(protocol));
        }
        return map;
    }

    private static List<Listener> parseList(String key, String value, Map<ListenerName, SecurityProtocol> protocols) {
        List<Listener> listeners = new ArrayList<>();
        for (String entry : value.split(",")) {
            if (!entry.isBlank()) {
                listeners.add(parseOne(key, value, entry.trim(), protocols));
            }
        }
        return listeners;
    }

    private static Listener parseOne(String key, String value, String entry, Map<ListenerName, SecurityProtocol> protocols) {
        int scheme = entry.indexOf("://");
        int colon = entry.lastIndexOf(':');
        if (scheme <= 0 || colon <= scheme) {
            throw new ConfigException(key, value, "expected NAME://host:port, got '" + entry + "'");
        }
        ListenerName name = ListenerName.normalised(entry.substring(0, scheme));
        SecurityProtocol protocol = protocols.get(name);
        if (protocol == null) {
            throw new ConfigException(key, value, "listener " + name.value() + " has no security protocol in "
                    + LISTENER_SECURITY_PROTOCOL_MAP);
        }
        String host = entry.substring(scheme + 3, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(entry.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new ConfigException(key, value, "port is not a number in '" + entry + "'");
        }
        if (port < 0 || port > 65535) {
            throw new ConfigException(key, value, "port out of range in '" + entry + "'");
        }
        return new Listener(name, protocol, host, port);
    }

    /** The listeners to bind, in the order given. */
    public List<Listener> bound() {
        return bound;
    }

    /** What is registered for {@code name}: the advertised address, or the bound one. */
    public Listener advertised(ListenerName name) {
        return advertised.get(name);
    }

    public Map<ListenerName, Listener> advertised() {
        return advertised;
    }

    public ListenerName interBrokerName() {
        return interBroker;
    }

    public Listener interBroker() {
        return advertised.get(interBroker);
    }

    public Optional<Listener> bound(ListenerName name) {
        return bound.stream().filter(listener -> listener.name().equals(name)).findFirst();
    }
}

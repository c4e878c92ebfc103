package io.tributary.broker.network;

import java.net.InetAddress;
import java.util.Map;

/**
 * {@code max.connections}, {@code max.connections.per.ip} and {@code max.connections.per.ip.overrides}
 * (resolved to addresses).
 */
public record ConnectionLimits(int maxConnections, int maxConnectionsPerIp, Map<InetAddress, Integer> perIpOverrides) {
    public static final ConnectionLimits NONE = new ConnectionLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Map.of());

    public ConnectionLimits {
        perIpOverrides = Map.copyOf(perIpOverrides);
    }

    int maxFor(InetAddress address) {
        return perIpOverrides.getOrDefault(address, maxConnectionsPerIp);
    }
}

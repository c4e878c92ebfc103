package io.tributary.broker.network;

import java.net.InetSocketAddress;

/** The settings of the socket layer, read from the broker config. */
public record SocketServerConfig(InetSocketAddress listenAddress, int networkThreads, int maxRequestBytes,
                                 long maxIdleMs, long partialRequestTimeoutMs, int queuedMaxRequests,
                                 long queuedMaxRequestBytes, ConnectionLimits connectionLimits,
                                 int sendBufferBytes, int receiveBufferBytes, ChannelSecurity security) {
}

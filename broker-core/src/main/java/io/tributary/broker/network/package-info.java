/**
 * The broker's socket layer: size-prefixed Kafka frames over plain TCP or TLS.
 *
 * <p>Threads: one {@link io.tributary.broker.network.Acceptor} accepts connections (at the rates its
 * {@link io.tributary.broker.network.ConnectionRates} allow) and hands each
 * to one of {@code num.network.threads} {@link io.tributary.broker.network.Processor}s. A
 * processor owns its NIO selector and its connections outright, so nothing on the socket path
 * takes a lock. It reads one frame at a time per connection, parses it with kafka-clients'
 * generated classes and puts it on the {@link io.tributary.broker.network.RequestChannel}; the
 * connection then stops reading until the response to that request has been written (and, after a
 * response carrying a quota's throttle time, until that time has passed). That
 * one-request-in-flight rule is what keeps responses in request order per connection.
 *
 * <p>Each listener's {@link io.tributary.broker.network.ChannelSecurity} gives a new connection its
 * {@link io.tributary.broker.network.Transport} (plaintext, or {@link io.tributary.broker.network.TlsTransport}
 * over an {@code SSLEngine}) and its {@link io.tributary.broker.network.Authenticator}, which answers the
 * requests of a SASL exchange before any reach the handlers. The policy lives in {@code io.tributary.broker.security}.
 *
 * <p>Anything that cannot be parsed, and any Throwable while reading, handling or writing a request,
 * closes only the connection it came from. Frame memory is bounded by the
 * {@link io.tributary.broker.network.MemoryPool} and given back by the request handler as soon as it
 * has read the request ({@link io.tributary.broker.network.Request#releaseFrame()}). The acceptor's, processors' and handlers' threads run under
 * {@link io.tributary.broker.network.SupervisedThreads}: one that ends anyway is logged and replaced.
 */
package io.tributary.broker.network;

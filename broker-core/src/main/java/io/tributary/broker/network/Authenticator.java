package io.tributary.broker.network;

import java.nio.ByteBuffer;
import java.util.Optional;
import javax.net.ssl.SSLSession;
import org.apache.kafka.common.network.Send;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;

/**
 * Who is on the other end of one connection: settled by the TLS handshake alone, or by a SASL exchange that the
 * processor hands the connection's requests to until it completes (and again when a client re-authenticates, KIP-368).
 * Confined to the processor thread.
 */
public interface Authenticator {
    /** The transport is ready (after the TLS handshake, if any): {@code session} holds the peer's certificates. */
    default void transportReady(Optional<SSLSession> session) {
    }

    /** True while requests go to the handlers as {@link #principal()}: false before the login, and during a re-login. */
    boolean authenticated();

    /** The authenticated principal; {@code User:ANONYMOUS} until {@link #authenticated()}, as in Kafka. */
    KafkaPrincipal principal();

    /** The largest frame accepted before authentication (Kafka's {@code sasl.server.max.receive.size}). */
    default int maxUnauthenticatedFrameBytes() {
        return Integer.MAX_VALUE;
    }

    /**
     * Every request the connection sends, before the handlers see it; by default it goes to them.
     *
     * @param nowMs the processor's clock, for sessions that expire
     * @return what to do with it
     */
    default Step handle(RequestHeader header, AbstractRequest request, long nowMs) {
        return Step.FORWARD;
    }

    /** True if the next frame is a bare SASL token, not a Kafka request (after a SaslHandshake v0). */
    default boolean expectsBareToken() {
        return false;
    }

    /** A bare SASL token ({@link #expectsBareToken()}): its payload, without the size prefix. */
    default Step handleBareToken(ByteBuffer token, long nowMs) {
        throw new IllegalStateException("no SASL token expected");
    }

    /** Releases what the exchange holds (the connection is closing). */
    default void close() {
    }

    /** What the processor does with a request (or a bare token). */
    record Step(Send reply, boolean thenClose) {
        /** Hand the request to the request handlers (ApiVersions before authenticating, anything after). */
        public static final Step FORWARD = new Step(null, false);
        /** Close the connection without an answer (a failed bare-token exchange, a session that expired). */
        public static final Step CLOSE = new Step(null, true);

        public static Step reply(Send send) {
            return new Step(send, false);
        }

        /** Answer, and close the connection once the answer is out (a failed or illegal exchange). */
        public static Step replyAndClose(Send send) {
            return new Step(send, true);
        }

        boolean forward() {
            return reply == null && !thenClose;
        }
    }
}

package io.tributary.broker.network;

import java.util.Optional;
import javax.net.ssl.SSLSession;
import org.apache.kafka.common.network.Send;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;

/**
 * Who is on the other end of one connection: settled by the TLS handshake alone, or by a SASL exchange that the
 * processor hands the connection's first requests to. Confined to the processor thread.
 */
public interface Authenticator {
    /** The transport is ready (after the TLS handshake, if any): {@code session} holds the peer's certificates. */
    default void transportReady(Optional<SSLSession> session) {
    }

    /** True once requests go to the handlers as {@link #principal()}. */
    boolean authenticated();

    /** The authenticated principal; {@code User:ANONYMOUS} until {@link #authenticated()}, as in Kafka. */
    KafkaPrincipal principal();

    /** The largest frame accepted before authentication (Kafka's {@code sasl.server.max.receive.size}). */
    default int maxUnauthenticatedFrameBytes() {
        return Integer.MAX_VALUE;
    }

    /**
     * A request that arrived before {@link #authenticated()}; by default it goes to the handlers.
     *
     * @return what to do with it
     */
    default Step handle(RequestHeader header, AbstractRequest request) {
        return Step.FORWARD;
    }

    /** Releases what the exchange holds (the connection is closing). */
    default void close() {
    }

    /** What the processor does with a request that arrived during authentication. */
    record Step(Send reply, boolean thenClose) {
        /** Hand the request to the request handlers (ApiVersions, which a client sends before authenticating). */
        public static final Step FORWARD = new Step(null, false);

        public static Step reply(Send send) {
            return new Step(send, false);
        }

        /** Answer, and close the connection once the answer is out (a failed or illegal exchange). */
        public static Step replyAndClose(Send send) {
            return new Step(send, true);
        }

        boolean forward() {
            return reply == null;
        }
    }
}

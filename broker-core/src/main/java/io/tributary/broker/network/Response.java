package io.tributary.broker.network;

import java.util.Optional;
import org.apache.kafka.common.network.Send;

/**
 * What a processor does for a request once it has been handled: write {@link #send()}, or
 * (for acks=0 produce) write nothing and resume reading, or close the connection when no answer
 * can be given (the client would otherwise wait for one forever).
 */
public final class Response {
    private final Request request;
    private final Send send;
    private final boolean closeConnection;
    private final long throttleTimeMs;

    private Response(Request request, Send send, boolean closeConnection, long throttleTimeMs) {
        this.request = request;
        this.send = send;
        this.closeConnection = closeConnection;
        this.throttleTimeMs = throttleTimeMs;
    }

    public static Response of(Request request, Send send) {
        return new Response(request, send, false, 0);
    }

    /**
     * A response to a client over its quota: written at once (it carries the throttle time), after which the
     * connection reads nothing for {@code throttleTimeMs} (KIP-219). A null {@code send} (acks=0 produce) only mutes.
     */
    public static Response throttled(Request request, Send send, long throttleTimeMs) {
        return new Response(request, send, false, throttleTimeMs);
    }

    /** The request needs no answer on the wire (a produce with acks=0). */
    public static Response none(Request request) {
        return new Response(request, null, false, 0);
    }

    /** No answer could be produced: the connection is closed. */
    public static Response closeConnection(Request request) {
        return new Response(request, null, true, 0);
    }

    public boolean closesConnection() {
        return closeConnection;
    }

    public Request request() {
        return request;
    }

    /** How long the connection stays muted once the response is out; 0 if the client is within its quotas. */
    public long throttleTimeMs() {
        return throttleTimeMs;
    }

    public Optional<Send> send() {
        return Optional.ofNullable(send);
    }
}

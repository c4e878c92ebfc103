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

    private Response(Request request, Send send, boolean closeConnection) {
        this.request = request;
        this.send = send;
        this.closeConnection = closeConnection;
    }

    public static Response of(Request request, Send send) {
        return new Response(request, send, false);
    }

    /** The request needs no answer on the wire (a produce with acks=0). */
    public static Response none(Request request) {
        return new Response(request, null, false);
    }

    /** No answer could be produced: the connection is closed. */
    public static Response closeConnection(Request request) {
        return new Response(request, null, true);
    }

    public boolean closesConnection() {
        return closeConnection;
    }

    public Request request() {
        return request;
    }

    public Optional<Send> send() {
        return Optional.ofNullable(send);
    }
}

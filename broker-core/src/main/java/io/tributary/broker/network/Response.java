package io.tributary.broker.network;

import java.util.Optional;
import org.apache.kafka.common.network.Send;

/**
 * What a processor does for a request once it has been handled: write {@link #send()}, or
 * (for acks=0 produce) write nothing and resume reading. Either way the connection reads its
 * next request afterwards.
 */
public final class Response {
    private final Request request;
    private final Send send;

    private Response(Request request, Send send) {
        this.request = request;
        this.send = send;
    }

    public static Response of(Request request, Send send) {
        return new Response(request, send);
    }

    /** The request needs no answer on the wire (a produce with acks=0). */
    public static Response none(Request request) {
        return new Response(request, null);
    }

    public Request request() {
        return request;
    }

    public Optional<Send> send() {
        return Optional.ofNullable(send);
    }
}

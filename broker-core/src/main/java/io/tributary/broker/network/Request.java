package io.tributary.broker.network;

import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * A parsed request on its way from a processor to a request handler, and the address its
 * response goes back to. Immutable.
 */
public final class Request {
    private final int processorId;
    private final String connectionId;
    private final RequestHeader header;
    private final AbstractRequest body;
    private final int sizeInBytes;
    private final Session session;

    public Request(int processorId, String connectionId, RequestHeader header, AbstractRequest body,
                   int sizeInBytes, Session session) {
        this.processorId = processorId;
        this.connectionId = connectionId;
        this.header = header;
        this.body = body;
        this.sizeInBytes = sizeInBytes;
        this.session = session;
    }

    /** Who sent it, from where, on which listener. */
    public Session session() {
        return session;
    }

    public int processorId() {
        return processorId;
    }

    public String connectionId() {
        return connectionId;
    }

    public RequestHeader header() {
        return header;
    }

    /** The body, parsed at {@link #version()}. */
    public AbstractRequest body() {
        return body;
    }

    public ApiKeys apiKey() {
        return header.apiKey();
    }

    public short version() {
        return header.apiVersion();
    }

    public int sizeInBytes() {
        return sizeInBytes;
    }

    @Override
    public String toString() {
        return header.apiKey() + " v" + header.apiVersion() + " #" + header.correlationId()
                + " from " + connectionId + " (" + header.clientId() + ")";
    }
}

package io.tributary.broker.network;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * A parsed request on its way from a processor to a request handler, and the address its
 * response goes back to. Its body may still read the frame it was parsed from (produce records
 * do), whose memory counts in {@code queued.max.request.bytes} until {@link #releaseFrame()}.
 * Thread-safe.
 */
public final class Request {
    private final int processorId;
    private final String connectionId;
    private final RequestHeader header;
    private final AbstractRequest body;
    private final int sizeInBytes;
    private final AtomicReference<Runnable> frameRelease;
    private final Session session;
    private volatile LongConsumer networkThreadTimeRecorder;

    /** @param frameRelease gives the frame's memory back; run once, by {@link #releaseFrame()} */
    public Request(int processorId, String connectionId, RequestHeader header, AbstractRequest body,
                   int sizeInBytes, Runnable frameRelease, Session session) {
        this.processorId = processorId;
        this.connectionId = connectionId;
        this.header = header;
        this.body = body;
        this.sizeInBytes = sizeInBytes;
        this.frameRelease = new AtomicReference<>(frameRelease);
        this.session = session;
    }

    /**
     * Gives the frame's memory back to the pool: call once nothing reads the body's bytes any more (after the
     * handler has returned: produce records have been copied into the log by then, even when the response
     * waits for replication). Later calls do nothing.
     */
    public void releaseFrame() {
        Runnable release = frameRelease.getAndSet(null);
        if (release != null) {
            release.run();
        }
    }

    /**
     * Set by the handler (before the response is queued) to charge the client the network thread's time for the
     * request once its response is out: the time reading the request and writing the response, TLS included.
     */
    public void onNetworkThreadTime(LongConsumer recorder) {
        networkThreadTimeRecorder = recorder;
    }

    /** Called by the processor once the response is out (or the connection closed). */
    void recordNetworkThreadTime(long nanos) {
        LongConsumer recorder = networkThreadTimeRecorder;
        if (recorder != null) {
            recorder.accept(nanos);
        }
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

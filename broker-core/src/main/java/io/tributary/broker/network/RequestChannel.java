package io.tributary.broker.network;

import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import io.tributary.broker.metrics.IdleRatio;

/**
 * The hand-over between processors (network threads) and request handlers: a bounded queue of
 * requests one way, a per-processor queue of responses the other. Thread-safe.
 */
public final class RequestChannel {
    private final BlockingQueue<Request> requests;
    private final Map<Integer, Processor> processors = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger processorIds = new AtomicInteger();
    private final Object idle = new Object();
    private final IdleRatio networkIdle = new IdleRatio();

    public RequestChannel(int queuedMaxRequests) {
        this.requests = new ArrayBlockingQueue<>(queuedMaxRequests);
    }

    /** Reserves {@code count} processor ids for one listener: ids are unique over all the listeners sharing this channel. */
    int reserveProcessorIds(int count) {
        return processorIds.getAndAdd(count);
    }

    void addProcessor(Processor processor) {
        processors.put(processor.id(), processor);
    }

    /** Blocks while the queue is full: back-pressure on the network threads. */
    void sendRequest(Request request) throws InterruptedException {
        inFlight.incrementAndGet();
        requests.put(request);
    }

    /** How much of their time the processors of every listener spend waiting in their selectors. */
    public IdleRatio networkIdle() {
        return networkIdle;
    }

    /** Requests waiting for a handler thread. */
    public int queuedRequests() {
        return requests.size();
    }

    /** The next request, or null after {@code timeoutMs}. */
    public Request receiveRequest(long timeoutMs) throws InterruptedException {
        return requests.poll(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** Hands a response to the processor that owns the request's connection. */
    public void sendResponse(Response response) {
        Processor processor = processors.get(response.request().processorId());
        if (processor != null) {
            processor.enqueueResponse(response);
        }
        if (inFlight.decrementAndGet() == 0) {
            synchronized (idle) {
                idle.notifyAll();
            }
        }
    }

    /** Waits until every received request has been answered; false on timeout. */
    public boolean awaitNoneInFlight(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        synchronized (idle) {
            while (inFlight.get() > 0) {
                long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (leftMs <= 0) {
                    return false;
                }
                idle.wait(leftMs);
            }
        }
        return true;
    }
}

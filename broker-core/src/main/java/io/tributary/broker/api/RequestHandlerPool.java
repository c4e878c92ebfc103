package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.List;
import io.tributary.broker.network.Request;
import io.tributary.broker.network.RequestChannel;
import io.tributary.broker.network.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code num.io.threads} request-handler threads: each takes requests off the channel, runs
 * them through the dispatcher and hands the response back to the request's processor.
 */
public final class RequestHandlerPool implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RequestHandlerPool.class);
    private static final long POLL_MS = 300;

    private final RequestChannel channel;
    private final RequestDispatcher dispatcher;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    public RequestHandlerPool(int threadCount, RequestChannel channel, RequestDispatcher dispatcher) {
        this.channel = channel;
        this.dispatcher = dispatcher;
        for (int i = 0; i < threadCount; i++) {
            Thread thread = new Thread(this::run, "tributary-request-handler-" + i);
            threads.add(thread);
        }
    }

    public void start() {
        threads.forEach(Thread::start);
    }

    private void run() {
        while (running) {
            Request request;
            try {
                request = channel.receiveRequest(POLL_MS);
            } catch (InterruptedException e) {
                return;
            }
            if (request != null) {
                handle(request);
            }
        }
    }

    private void handle(Request request) {
        try {
            dispatcher.dispatch(request).whenComplete((response, error) -> {
                if (error != null) {
                    log.error("{} failed without a response; closing its connection", request, error);
                    channel.sendResponse(Response.closeConnection(request));
                } else {
                    channel.sendResponse(response);
                }
            });
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            // One bad request costs its connection, never a handler thread: a dead thread would
            // silently shrink the pool until the broker stops answering.
            log.error("{} failed outside its handler; closing its connection", request, e);
            channel.sendResponse(Response.closeConnection(request));
        }
    }

    /** Stops taking requests; call after the channel has drained. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        for (Thread thread : threads) {
            thread.join(5_000);
        }
    }
}

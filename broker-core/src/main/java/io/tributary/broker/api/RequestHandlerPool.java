package io.tributary.broker.api;

import java.util.concurrent.CompletableFuture;
import io.tributary.broker.network.Request;
import io.tributary.broker.network.RequestChannel;
import io.tributary.broker.network.Response;
import io.tributary.broker.network.SupervisedThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code num.io.threads} request-handler threads: each takes requests off the channel, runs
 * them through the handler (the {@link RequestDispatcher}) and hands the response back to the
 * request's processor. A request that fails in any way costs its connection only; a thread that
 * dies anyway is replaced ({@link SupervisedThreads}).
 */
public final class RequestHandlerPool implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RequestHandlerPool.class);
    private static final long POLL_MS = 300;

    /** What the threads run each request through. */
    @FunctionalInterface
    public interface Handler {
        CompletableFuture<Response> handle(Request request);
    }

    private final int threadCount;
    private final RequestChannel channel;
    private final Handler handler;
    private final SupervisedThreads threads = new SupervisedThreads();
    private volatile boolean running = true;

    public RequestHandlerPool(int threadCount, RequestChannel channel, Handler handler) {
        this.threadCount = threadCount;
        this.channel = channel;
        this.handler = handler;
    }

    public void start() {
        for (int i = 0; i < threadCount; i++) {
            threads.start("tributary-request-handler-" + i, this::run, () -> this::run);
        }
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
        CompletableFuture<Response> answer;
        try {
            answer = handler.handle(request);
        } catch (Throwable e) {
            // One bad request costs its connection, never a handler thread: a dead thread would
            // silently shrink the pool until the broker stops answering.
            log.error("{} failed outside its handler; closing its connection", request, e);
            channel.sendResponse(Response.closeConnection(request));
            return;
        } finally {
            // The handler has read the request's bytes (produce records are in the log now): their memory goes back
            // at once, not when the response leaves, so requests waiting for replication cannot hold the pool
            // while the follower fetches that would complete them wait for memory.
            request.releaseFrame();
        }
        answer.whenComplete((response, error) -> {
            if (error != null) {
                log.error("{} failed without a response; closing its connection", request, error);
                channel.sendResponse(Response.closeConnection(request));
            } else {
                channel.sendResponse(response);
            }
        });
    }

    /** Stops taking requests; call after the channel has drained. */
    @Override
    public void close() throws InterruptedException {
        threads.stop();
        running = false;
        threads.join(5_000);
    }
}

package io.tributary.broker.api;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import io.tributary.broker.network.Request;
import org.apache.kafka.common.protocol.ApiMessage;

/**
 * The step between a request and its handler that decides what the sender may do. It may refuse the whole request
 * (by throwing Kafka's authorization exception, which becomes the request's error response), take the resources it
 * may not touch out of the request before the handler sees it and put them back into the response with their
 * error, or filter what the response shows. Thread-safe.
 */
@FunctionalInterface
interface RequestAuthorization {
    /** No authorizer configured: every request goes to its handler as it is. */
    RequestAuthorization NONE = (request, handler) -> handler.apply(request);

    CompletableFuture<? extends ApiMessage> handle(Request request, Function<Request, CompletableFuture<? extends ApiMessage>> handler);
}

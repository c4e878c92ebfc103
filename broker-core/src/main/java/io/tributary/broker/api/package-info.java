/**
 * The Kafka APIs: {@link io.tributary.broker.api.RequestDispatcher} checks the version against
 * {@link io.tributary.broker.api.SupportedApis} and hands the typed {@code *RequestData} to one
 * handler per API family, which returns the typed {@code *ResponseData}. Handlers never see bytes
 * or sockets; they run on the request-handler threads, and a handler that must wait (a fetch
 * long-poll) returns a future instead of blocking its thread.
 */
package io.tributary.broker.api;

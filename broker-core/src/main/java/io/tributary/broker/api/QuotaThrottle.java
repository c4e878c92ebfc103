package io.tributary.broker.api;

import io.tributary.broker.network.Request;
import io.tributary.broker.quota.ClientQuotaEnforcer;
import io.tributary.broker.quota.QuotaType;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * Charges a request to its client's quotas, as Kafka does: produce request bytes against
 * {@code producer_byte_rate}, fetch response bytes against {@code consumer_byte_rate}, and the handler time of
 * every request against {@code request_percentage}. A client over a quota gets its response at once with the
 * longest of the throttle times in {@code throttle_time_ms}, and its connection then waits that long (KIP-219).
 * Followers' fetches are replication, not client traffic: they are never charged. Thread-safe.
 */
final class QuotaThrottle {
    private final ClientQuotaEnforcer quotas;

    QuotaThrottle(ClientQuotaEnforcer quotas) {
        this.quotas = quotas;
    }

    /**
     * Records the request and sets the throttle time in {@code body} if the client is over a quota.
     *
     * @param handlerNanos time the handler thread spent on the request
     * @return the response body to send (may be a copy) and its throttle time
     */
    Throttled charge(Request request, ApiMessage body, short version, long handlerNanos) {
        if (isFollowerFetch(request)) {
            return new Throttled(body, 0);
        }
        String user = ClientQuotaEnforcer.ANONYMOUS_USER;
        String clientId = request.header().clientId() == null ? "" : request.header().clientId();
        long bandwidth = switch (request.apiKey()) {
            case PRODUCE -> quotas.recordBytes(QuotaType.PRODUCE, user, clientId, request.sizeInBytes());
            case FETCH -> quotas.recordBytes(QuotaType.FETCH, user, clientId, body.size(new ObjectSerializationCache(), version));
            default -> 0;
        };
        long handlerTime = quotas.recordHandlerTime(user, clientId, handlerNanos);
        int throttleMs = (int) Math.min(Integer.MAX_VALUE, Math.max(bandwidth, handlerTime));
        return new Throttled(throttleMs > 0 ? withThrottleTime(request.apiKey(), body, version, throttleMs) : body, throttleMs);
    }

    /** A response body and the throttle time it carries. */
    record Throttled(ApiMessage body, int throttleTimeMs) {
    }

    private static boolean isFollowerFetch(Request request) {
        if (request.apiKey() != ApiKeys.FETCH) {
            return false;
        }
        FetchRequestData fetch = (FetchRequestData) request.body().data();
        return fetch.replicaId() >= 0 || fetch.replicaState().replicaId() >= 0;
    }

    private static ApiMessage withThrottleTime(ApiKeys key, ApiMessage body, short version, int throttleMs) {
        if (body instanceof ProduceResponseData produce) {
            return produce.setThrottleTimeMs(throttleMs);
        }
        if (body instanceof FetchResponseData fetch) {
            return fetch.setThrottleTimeMs(throttleMs);
        }
        // Every other response has the field too, under its own generated class: kafka-clients sets it for us.
        AbstractResponse response = AbstractResponse.parseResponse(key, MessageUtil.toByteBufferAccessor(body, version), version);
        response.maybeSetThrottleTimeMs(throttleMs);
        return response.data();
    }
}

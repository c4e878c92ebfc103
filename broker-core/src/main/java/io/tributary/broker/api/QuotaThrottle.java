package io.tributary.broker.api;

import io.tributary.broker.fetch.FetchSessions;
import io.tributary.broker.network.Request;
import io.tributary.broker.quota.ClientQuotaEnforcer;
import io.tributary.broker.quota.QuotaType;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * Charges a request to its client's quotas, as Kafka does: produce request bytes against
 * {@code producer_byte_rate}, fetch response bytes against {@code consumer_byte_rate}, and the handler time of
 * every request (errors and ApiVersions included) against {@code request_percentage}, then, once the response is
 * out, the network thread's time for it (KIP-124: reading the request, writing the response, a TLS handshake),
 * which counts against the client's next request. A client over a quota gets its response at once with the
 * longest of the throttle times in {@code throttle_time_ms} (a fetch gets no records then), and its connection
 * then waits that long (KIP-219).
 * Followers' fetches are replication, not client traffic: they are never charged. Thread-safe.
 */
final class QuotaThrottle {
    private final ClientQuotaEnforcer quotas;
    private final FetchSessions fetchSessions;

    QuotaThrottle(ClientQuotaEnforcer quotas, FetchSessions fetchSessions) {
        this.quotas = quotas;
        this.fetchSessions = fetchSessions;
    }

    /**
     * Records the request and sets the throttle time in {@code body} if the client is over a quota.
     *
     * @param body         the response, or null for a produce with acks=0 (which is throttled by muting alone)
     * @param handlerNanos time the handler thread spent on the request
     * @return the response body to send (may be another one) and its throttle time
     */
    Throttled charge(Request request, ApiMessage body, short version, long handlerNanos) {
        if (!quotas.anyQuota() || isFollowerFetch(request) || beforeSaslLogin(request)) {
            return new Throttled(body, 0);
        }
        String user = request.session().principal().getName(); // ANONYMOUS on PLAINTEXT, as in Kafka
        String clientId = request.header().clientId() == null ? "" : request.header().clientId();
        request.onNetworkThreadTime(nanos -> quotas.recordNetworkThreadTime(user, clientId, nanos));
        long requestThrottleMs = quotas.recordHandlerTime(user, clientId, handlerNanos);
        return switch (request.apiKey()) {
            case PRODUCE -> throttled(request.apiKey(), body, version, throttleMs(user, clientId, requestThrottleMs,
                    QuotaType.PRODUCE, quotas.recordBytes(QuotaType.PRODUCE, user, clientId, request.sizeInBytes())));
            case FETCH -> chargeFetch(user, clientId, (FetchResponseData) body, version, requestThrottleMs);
            default -> throttled(request.apiKey(), body, version, throttleMs(user, clientId, requestThrottleMs, QuotaType.REQUEST, 0));
        };
    }

    /**
     * As in Kafka, a throttled fetch gets no records (the consumer fetches them again after its throttle), so
     * their bytes do not count against its rate; its session sends what it left out with the next answer.
     */
    private Throttled chargeFetch(String user, String clientId, FetchResponseData body, short version, long requestThrottleMs) {
        long bytes = body.size(new ObjectSerializationCache(), version);
        long throttleMs = throttleMs(user, clientId, requestThrottleMs, QuotaType.FETCH,
                quotas.recordBytes(QuotaType.FETCH, user, clientId, bytes));
        if (throttleMs == 0) {
            return new Throttled(body, 0);
        }
        quotas.unrecordBytes(QuotaType.FETCH, user, clientId, bytes);
        fetchSessions.unsent(body);
        int ms = asInt(throttleMs);
        return new Throttled(new FetchResponseData().setThrottleTimeMs(ms).setErrorCode(Errors.NONE.code())
                .setSessionId(body.sessionId()), ms);
    }

    /**
     * The longer of the request-time and the byte-rate throttles, counted (as in Kafka) in the throttle-time metric of
     * the quota that caused it.
     */
    private long throttleMs(String user, String clientId, long requestThrottleMs, QuotaType bytesType, long bytesThrottleMs) {
        long throttleMs = Math.max(requestThrottleMs, bytesThrottleMs);
        if (throttleMs > 0) {
            quotas.recordThrottleTime(bytesThrottleMs > requestThrottleMs ? bytesType : QuotaType.REQUEST, user, clientId, throttleMs);
        }
        return throttleMs;
    }

    private static Throttled throttled(ApiKeys key, ApiMessage body, short version, long throttleMs) {
        int ms = asInt(throttleMs);
        return new Throttled(ms > 0 && body != null ? withThrottleTime(key, body, version, ms) : body, ms);
    }

    private static int asInt(long throttleMs) {
        return (int) Math.min(Integer.MAX_VALUE, throttleMs);
    }

    /** A response body and the throttle time it carries. */
    record Throttled(ApiMessage body, int throttleTimeMs) {
    }

    /**
     * A SASL connection's ApiVersions before it has logged in, which Kafka's authenticator answers on the network
     * thread, uncharged: its time goes to the first request after the login (see {@code Connection}).
     */
    private static boolean beforeSaslLogin(Request request) {
        SecurityProtocol protocol = request.session().protocol();
        return (protocol == SecurityProtocol.SASL_PLAINTEXT || protocol == SecurityProtocol.SASL_SSL)
                && request.session().principal().equals(KafkaPrincipal.ANONYMOUS);
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
        // Every other response has the field too, under its own generated class: kafka-clients sets it for us.
        AbstractResponse response = AbstractResponse.parseResponse(key, MessageUtil.toByteBufferAccessor(body, version), version);
        response.maybeSetThrottleTimeMs(throttleMs);
        return response.data();
    }
}

package io.tributary.broker.network;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * Turns one frame (without its size prefix) into a header and a typed body, using only
 * kafka-clients' generated classes. Stateless and thread-safe.
 */
final class RequestParser {
    /** What a frame turned out to be. */
    sealed interface Parsed permits Parsed.Ok, Parsed.Unknown {
        /** A request kafka-clients can read; the dispatcher still checks our own version range. */
        record Ok(RequestHeader header, AbstractRequest body) implements Parsed {
        }

        /**
         * An API key or version kafka-clients itself does not know, so its body cannot be read
         * and no typed response can be written: it is answered with the bare error code.
         */
        record Unknown(int correlationId, short apiKey, short apiVersion, String clientId) implements Parsed {
        }
    }

    private static final int HEADER_PREFIX_BYTES = 8; // api key, api version, correlation id

    /**
     * @throws InvalidRequestException if the frame is malformed; the caller closes the connection
     */
    Parsed parse(ByteBuffer frame) {
        if (frame.remaining() < HEADER_PREFIX_BYTES) {
            throw new InvalidRequestException("frame of " + frame.remaining() + " bytes is shorter than a request header");
        }
        short apiKey = frame.getShort(0);
        short apiVersion = frame.getShort(2);
        int correlationId = frame.getInt(4);
        if (!ApiKeys.hasId(apiKey)) {
            return new Parsed.Unknown(correlationId, apiKey, apiVersion, clientId(frame));
        }
        ApiKeys key = ApiKeys.forId(apiKey);
        if (key == ApiKeys.API_VERSIONS && !key.isVersionSupported(apiVersion)) {
            // A newer client than us: it must get UNSUPPORTED_VERSION plus our ranges, in a v0 body.
            RequestHeader header = parseHeader(frame);
            return new Parsed.Ok(header, new ApiVersionsRequest(new ApiVersionsRequestData(), (short) 0));
        }
        if (!key.isVersionSupported(apiVersion)) {
            return new Parsed.Unknown(correlationId, apiKey, apiVersion, clientId(frame));
        }
        RequestHeader header = parseHeader(frame);
        try {
            AbstractRequest body = AbstractRequest.parseRequest(key, apiVersion, new ByteBufferAccessor(frame)).request;
            return new Parsed.Ok(header, body);
        } catch (RuntimeException e) {
            throw new InvalidRequestException("malformed " + key + " v" + apiVersion + " body: " + e.getMessage(), e);
        }
    }

    /**
     * The client id of a request we cannot parse, for the log: every header version since v1 puts it right after the
     * correlation id as a 2-byte length and UTF-8 bytes. Null if absent or cut short.
     */
    private static String clientId(ByteBuffer frame) {
        if (frame.remaining() < HEADER_PREFIX_BYTES + 2) {
            return null;
        }
        short length = frame.getShort(HEADER_PREFIX_BYTES);
        if (length < 0 || frame.remaining() < HEADER_PREFIX_BYTES + 2 + length) {
            return null;
        }
        byte[] bytes = new byte[length];
        frame.get(HEADER_PREFIX_BYTES + 2, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static RequestHeader parseHeader(ByteBuffer frame) {
        try {
            return RequestHeader.parse(frame);
        } catch (RuntimeException e) {
            throw new InvalidRequestException("malformed request header: " + e.getMessage(), e);
        }
    }
}

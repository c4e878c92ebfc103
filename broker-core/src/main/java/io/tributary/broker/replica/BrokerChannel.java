package io.tributary.broker.replica;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.security.sasl.SaslClient;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.apache.kafka.common.requests.ResponseHeader;

/**
 * A blocking connection from a follower to its leader: one request at a time, framed and encoded
 * with kafka-clients' generated classes, authenticated first if the leader's inter-broker listener is SASL, and again
 * on the same connection before the session the leader gave it ends (KIP-368, {@code connections.max.reauth.ms}), at
 * 90% of its lifetime, as kafka-clients do between 85 and 95%. A read that takes longer than the timeout (a stopped or
 * unreachable leader) fails with an IOException; the caller reconnects. Not thread-safe.
 */
public final class BrokerChannel implements AutoCloseable {
    private static final long NEVER = Long.MAX_VALUE;

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final String clientId;
    private final String host;
    private final BrokerConnector connector;
    private int correlationId;
    private long reauthenticateAtNanos = NEVER;

    private BrokerChannel(Socket socket, String clientId, String host, BrokerConnector connector) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        this.clientId = clientId;
        this.host = host;
        this.connector = connector;
    }

    public static BrokerChannel connect(String host, int port, int timeoutMs, String clientId, BrokerConnector connector) throws IOException {
        Socket socket = connector.connect(new InetSocketAddress(host, port), timeoutMs);
        try {
            socket.setSoTimeout(timeoutMs);
            BrokerChannel channel = new BrokerChannel(socket, clientId, host, connector);
            channel.maybeAuthenticate();
            return channel;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private void maybeAuthenticate() throws IOException {
        Optional<SaslClient> sasl = connector.newSaslClient(host);
        if (sasl.isPresent()) {
            authenticate(sasl.get());
        }
    }

    /** KIP-152: SaslHandshake v1, then the mechanism's tokens in SaslAuthenticate requests until the client is done. */
    private void authenticate(SaslClient client) throws IOException {
        long startNanos = System.nanoTime();
        try {
            SaslHandshakeResponseData handshake = (SaslHandshakeResponseData) exchange(ApiKeys.SASL_HANDSHAKE, (short) 1,
                    new SaslHandshakeRequestData().setMechanism(client.getMechanismName()));
            if (handshake.errorCode() != Errors.NONE.code()) {
                throw new IOException("the leader refused SASL mechanism " + client.getMechanismName() + ": "
                        + Errors.forCode(handshake.errorCode()) + " (it enables " + handshake.mechanisms() + ")");
            }
            byte[] token = client.hasInitialResponse() ? client.evaluateChallenge(new byte[0]) : new byte[0];
            while (true) {
                SaslAuthenticateResponseData response = (SaslAuthenticateResponseData) exchange(ApiKeys.SASL_AUTHENTICATE, (short) 2,
                        new SaslAuthenticateRequestData().setAuthBytes(token));
                if (response.errorCode() != Errors.NONE.code()) {
                    throw new IOException("SASL " + client.getMechanismName() + " authentication to the leader failed: "
                            + Errors.forCode(response.errorCode()) + ": " + response.errorMessage());
                }
                token = client.isComplete() ? null : client.evaluateChallenge(response.authBytes());
                if (client.isComplete() && (token == null || token.length == 0)) {
                    long lifetimeMs = response.sessionLifetimeMs();
                    reauthenticateAtNanos = lifetimeMs > 0 ? startNanos + TimeUnit.MILLISECONDS.toNanos(lifetimeMs * 9 / 10) : NEVER;
                    return;
                }
            }
        } finally {
            client.dispose();
        }
    }

    /** Sends {@code request} at {@code version} and returns the response body, re-authenticating first when it is time. */
    public ApiMessage send(ApiKeys key, short version, ApiMessage request) throws IOException {
        if (System.nanoTime() - reauthenticateAtNanos >= 0 && reauthenticateAtNanos != NEVER) {
            maybeAuthenticate();
        }
        return exchange(key, version, request);
    }

    private ApiMessage exchange(ApiKeys key, short version, ApiMessage request) throws IOException {
        RequestHeader header = new RequestHeader(key, version, clientId, ++correlationId);
        ByteBuffer frame = RequestUtils.serialize(header.data(), key.requestHeaderVersion(version), request, version);
        out.writeInt(frame.remaining());
        out.write(frame.array(), frame.arrayOffset() + frame.position(), frame.remaining());
        out.flush();
        int size = in.readInt();
        if (size < 0) {
            throw new IOException("negative response size " + size);
        }
        byte[] bytes = new byte[size];
        in.readFully(bytes);
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        ResponseHeader responseHeader = ResponseHeader.parse(buffer, key.responseHeaderVersion(version));
        if (responseHeader.correlationId() != header.correlationId()) {
            throw new IOException("response correlation id " + responseHeader.correlationId() + ", expected " + header.correlationId());
        }
        return AbstractResponse.parseResponse(key, new ByteBufferAccessor(buffer), version).data();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

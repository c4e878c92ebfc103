package io.tributary.broker.security;

import java.net.InetAddress;
import java.util.Optional;
import javax.net.ssl.SSLSession;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import io.tributary.broker.network.Authenticator;
import org.apache.kafka.common.errors.IllegalSaslStateException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.SendBuilder;
import org.apache.kafka.common.network.Send;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.KafkaPrincipalBuilder;
import org.apache.kafka.common.security.auth.SaslAuthenticationContext;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A SASL listener's, per connection, with KIP-152's framing: ApiVersions (answered by the handlers) and
 * SaslHandshake v1 first, then SaslAuthenticate requests carrying the mechanism's tokens to kafka-clients'
 * {@link SaslServer} for it, until it completes. Anything else before that gets ILLEGAL_SASL_STATE and the
 * connection is closed; so is a connection whose credentials are refused (SASL_AUTHENTICATION_FAILED) or that asks
 * for a mechanism the listener does not enable (UNSUPPORTED_SASL_MECHANISM). Confined to the processor thread.
 */
final class SaslAuthenticator implements Authenticator {
    private static final Logger log = LoggerFactory.getLogger(SaslAuthenticator.class);

    private enum State { HANDSHAKE, AUTHENTICATE, COMPLETE, FAILED }

    private final SaslMechanisms mechanisms;
    private final KafkaPrincipalBuilder principals;
    private final InetAddress client;
    private final ListenerName listener;
    private final SecurityProtocol protocol;
    private final int maxReceiveBytes;
    private Optional<SSLSession> sslSession = Optional.empty();
    private State state = State.HANDSHAKE;
    private SaslServer server;
    private KafkaPrincipal principal = KafkaPrincipal.ANONYMOUS;

    SaslAuthenticator(SaslMechanisms mechanisms, KafkaPrincipalBuilder principals, InetAddress client, ListenerName listener,
                      SecurityProtocol protocol, int maxReceiveBytes) {
        this.mechanisms = mechanisms;
        this.principals = principals;
        this.client = client;
        this.listener = listener;
        this.protocol = protocol;
        this.maxReceiveBytes = maxReceiveBytes;
    }

    @Override
    public void transportReady(Optional<SSLSession> session) {
        this.sslSession = session;
    }

    @Override
    public boolean authenticated() {
        return state == State.COMPLETE;
    }

    @Override
    public KafkaPrincipal principal() {
        return principal;
    }

    @Override
    public int maxUnauthenticatedFrameBytes() {
        return maxReceiveBytes;
    }

    @Override
    public Step handle(RequestHeader header, AbstractRequest request) {
        ApiKeys key = header.apiKey();
        if (state == State.HANDSHAKE && key == ApiKeys.API_VERSIONS) {
            return Step.FORWARD;
        }
        if (state == State.HANDSHAKE && key == ApiKeys.SASL_HANDSHAKE) {
            return handshake(header, (SaslHandshakeRequestData) request.data());
        }
        if (state == State.AUTHENTICATE && key == ApiKeys.SASL_AUTHENTICATE) {
            return authenticate(header, (SaslAuthenticateRequestData) request.data());
        }
        String message = "Unexpected Kafka request of type " + key + " during SASL " + (state == State.HANDSHAKE ? "handshake" : "authentication")
                + " on listener " + listener.value();
        log.info("closing connection from {}: {}", client.getHostAddress(), message);
        state = State.FAILED;
        return Step.replyAndClose(respond(header, request.getErrorResponse(0, new IllegalSaslStateException(message)).data()));
    }

    private Step handshake(RequestHeader header, SaslHandshakeRequestData request) {
        SaslHandshakeResponseData response = new SaslHandshakeResponseData().setMechanisms(mechanisms.enabled());
        if (header.apiVersion() < 1) {
            // v0 sends the tokens as raw frames (pre-KIP-152); every client in use speaks v1.
            state = State.FAILED;
            return Step.replyAndClose(respond(header, response.setErrorCode(Errors.UNSUPPORTED_VERSION.code())));
        }
        if (!mechanisms.enabled().contains(request.mechanism())) {
            log.info("closing connection from {}: SASL mechanism {} is not enabled on listener {} (enabled: {})",
                    client.getHostAddress(), request.mechanism(), listener.value(), mechanisms.enabled());
            state = State.FAILED;
            return Step.replyAndClose(respond(header, response.setErrorCode(Errors.UNSUPPORTED_SASL_MECHANISM.code())));
        }
        try {
            server = mechanisms.newServer(request.mechanism());
        } catch (SaslException e) {
            log.error("could not create a SASL server for {}", request.mechanism(), e);
            state = State.FAILED;
            return Step.replyAndClose(respond(header, response.setErrorCode(Errors.UNKNOWN_SERVER_ERROR.code())));
        }
        state = State.AUTHENTICATE;
        return Step.reply(respond(header, response.setErrorCode(Errors.NONE.code())));
    }

    private Step authenticate(RequestHeader header, SaslAuthenticateRequestData request) {
        SaslAuthenticateResponseData response = new SaslAuthenticateResponseData();
        try {
            byte[] challenge = server.evaluateResponse(request.authBytes());
            if (server.isComplete()) {
                principal = principals.build(new SaslAuthenticationContext(server, protocol, client, listener.value(), sslSession));
                state = State.COMPLETE;
                log.debug("{} authenticated from {} with {} on listener {}", principal, client.getHostAddress(),
                        server.getMechanismName(), listener.value());
            }
            return Step.reply(respond(header, response.setErrorCode(Errors.NONE.code())
                    .setAuthBytes(challenge == null ? new byte[0] : challenge).setSessionLifetimeMs(0)));
        } catch (SaslAuthenticationException e) {
            return failed(header, response, e.getMessage(), e);
        } catch (SaslException | RuntimeException e) {
            // As Kafka does: the client learns that its credentials were refused, the log says why.
            return failed(header, response, "Authentication failed during authentication due to invalid credentials with SASL mechanism "
                    + server.getMechanismName(), e);
        }
    }

    private Step failed(RequestHeader header, SaslAuthenticateResponseData response, String message, Exception cause) {
        log.info("closing connection from {}: SASL {} authentication failed on listener {}: {}", client.getHostAddress(),
                server.getMechanismName(), listener.value(), cause.getMessage());
        state = State.FAILED;
        return Step.replyAndClose(respond(header, response.setErrorCode(Errors.SASL_AUTHENTICATION_FAILED.code())
                .setErrorMessage(message).setAuthBytes(new byte[0])));
    }

    private static Send respond(RequestHeader header, ApiMessage body) {
        return SendBuilder.buildResponseSend(header.toResponseHeader(), body, header.apiVersion());
    }

    @Override
    public void close() {
        if (server != null) {
            try {
                server.dispose();
            } catch (SaslException ignored) {
                // nothing to release
            }
        }
    }
}

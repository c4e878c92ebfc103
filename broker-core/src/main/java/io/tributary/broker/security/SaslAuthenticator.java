package io.tributary.broker.security;

import java.net.InetAddress;
import java.nio.ByteBuffer;
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
import org.apache.kafka.common.network.ByteBufferSend;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.network.Send;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.SendBuilder;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.KafkaPrincipalBuilder;
import org.apache.kafka.common.security.auth.SaslAuthenticationContext;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.authenticator.SaslInternalConfigs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A SASL listener's, per connection, as Kafka's SaslServerAuthenticator: ApiVersions (answered by the handlers) and a
 * SaslHandshake first, then the mechanism's tokens for kafka-clients' {@link SaslServer} until it completes: in
 * SaslAuthenticate requests after a SaslHandshake v1 (KIP-152), as bare size-prefixed frames after a v0 (the framing
 * of clients older than Kafka 1.0, which Kafka 4.4 still serves). Anything else before that gets ILLEGAL_SASL_STATE
 * and the connection is closed; so is a connection whose credentials are refused (SASL_AUTHENTICATION_FAILED; a
 * bare-token client just loses the connection, as in Kafka) or that asks for a mechanism the listener does not enable
 * (UNSUPPORTED_SASL_MECHANISM). A SCRAM login with a delegation token ({@code tokenauth=true}) is its owner's, marked
 * token-authenticated, and is refused once the token has expired.
 *
 * <p>Sessions (KIP-368): with {@code connections.max.reauth.ms} above 0 a login lasts that long, which SaslAuthenticate
 * v1+ tells the client ({@code session_lifetime_ms}). A client re-authenticates on the same connection with a new
 * SaslHandshake and SaslAuthenticate (at most once a second), with the same mechanism and as the same principal, and
 * with credentials that are still valid; a failed re-authentication closes the connection. A connection whose session
 * has ended is closed on its next request other than a SaslHandshake. Confined to the processor thread.
 */
final class SaslAuthenticator implements Authenticator {
    private static final Logger log = LoggerFactory.getLogger(SaslAuthenticator.class);
    /** Kafka's limit: a re-authentication starting within a second of the previous one is not one. */
    private static final long MIN_REAUTHENTICATION_INTERVAL_MS = 1_000;
    private static final long NO_EXPIRY = Long.MAX_VALUE;

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
    private boolean bareTokens;
    private KafkaPrincipal principal = KafkaPrincipal.ANONYMOUS;
    /** While re-authenticating: the mechanism and principal of the session being renewed. */
    private Optional<Session> renewing = Optional.empty();
    private long sessionExpiresAtMs = NO_EXPIRY;
    /** When the last re-authentication started; 0 before the first. */
    private long lastReauthenticationStartMs;

    /** The mechanism and principal a login established. */
    private record Session(String mechanism, KafkaPrincipal principal) {
    }

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
    public Step handle(RequestHeader header, AbstractRequest request, long nowMs) {
        ApiKeys key = header.apiKey();
        if (state == State.COMPLETE) {
            if (key == ApiKeys.SASL_HANDSHAKE && mayReauthenticate(nowMs)) {
                lastReauthenticationStartMs = nowMs;
                renewing = Optional.of(new Session(server.getMechanismName(), principal));
                disposeServer();
                return handshake(header, (SaslHandshakeRequestData) request.data());
            }
            if (nowMs >= sessionExpiresAtMs) {
                log.info("closing connection from {} of {} on listener {}: its SASL session ended and it did not re-authenticate",
                        client.getHostAddress(), principal, listener.value());
                state = State.FAILED;
                return Step.CLOSE;
            }
            return Step.FORWARD; // a SaslHandshake here gets ILLEGAL_SASL_STATE from its handler, as in Kafka
        }
        if (state == State.HANDSHAKE && key == ApiKeys.API_VERSIONS) {
            return Step.FORWARD;
        }
        if (state == State.HANDSHAKE && key == ApiKeys.SASL_HANDSHAKE) {
            return handshake(header, (SaslHandshakeRequestData) request.data());
        }
        if (state == State.AUTHENTICATE && key == ApiKeys.SASL_AUTHENTICATE && !bareTokens) {
            return authenticate(header, (SaslAuthenticateRequestData) request.data(), nowMs);
        }
        String message = "Unexpected Kafka request of type " + key + " during SASL " + (state == State.HANDSHAKE ? "handshake" : "authentication")
                + " on listener " + listener.value();
        log.info("closing connection from {}: {}", client.getHostAddress(), message);
        state = State.FAILED;
        return Step.replyAndClose(respond(header, request.getErrorResponse(0, new IllegalSaslStateException(message)).data()));
    }

    /** A re-authentication needs sessions that end, and may not follow the previous one within a second. */
    private boolean mayReauthenticate(long nowMs) {
        return sessionExpiresAtMs != NO_EXPIRY
                && (lastReauthenticationStartMs == 0 || nowMs - lastReauthenticationStartMs >= MIN_REAUTHENTICATION_INTERVAL_MS);
    }

    private Step handshake(RequestHeader header, SaslHandshakeRequestData request) {
        SaslHandshakeResponseData response = new SaslHandshakeResponseData().setMechanisms(mechanisms.enabled());
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
        bareTokens = header.apiVersion() == 0;
        state = State.AUTHENTICATE;
        return Step.reply(respond(header, response.setErrorCode(Errors.NONE.code())));
    }

    private Step authenticate(RequestHeader header, SaslAuthenticateRequestData request, long nowMs) {
        SaslAuthenticateResponseData response = new SaslAuthenticateResponseData();
        try {
            byte[] challenge = evaluate(request.authBytes(), nowMs);
            return Step.reply(respond(header, response.setErrorCode(Errors.NONE.code()).setAuthBytes(challenge)
                    .setSessionLifetimeMs(state == State.COMPLETE ? sessionLifetimeMs(nowMs) : 0)));
        } catch (SaslException | RuntimeException e) {
            log.info("closing connection from {}: SASL {} {} failed on listener {}: {}", client.getHostAddress(), server.getMechanismName(),
                    renewing.isPresent() ? "re-authentication" : "authentication", listener.value(), e.getMessage());
            state = State.FAILED;
            return Step.replyAndClose(respond(header, response.setErrorCode(Errors.SASL_AUTHENTICATION_FAILED.code())
                    .setErrorMessage(clientMessage(e)).setAuthBytes(new byte[0])));
        }
    }

    @Override
    public boolean expectsBareToken() {
        return state == State.AUTHENTICATE && bareTokens;
    }

    @Override
    public Step handleBareToken(ByteBuffer token, long nowMs) {
        byte[] bytes = new byte[token.remaining()];
        token.get(bytes);
        try {
            return Step.reply(ByteBufferSend.sizePrefixed(ByteBuffer.wrap(evaluate(bytes, nowMs))));
        } catch (SaslException | RuntimeException e) {
            log.info("closing connection from {}: SASL {} authentication (SaslHandshake v0) failed on listener {}: {}",
                    client.getHostAddress(), server.getMechanismName(), listener.value(), e.getMessage());
            state = State.FAILED;
            return Step.CLOSE;
        }
    }

    /**
     * One token of the exchange; when it completes it, the login (or re-login) is done: the principal is set and the
     * session starts.
     *
     * @return the server's answer (empty if it has none)
     * @throws SaslAuthenticationException if a re-login changes the mechanism or the principal
     */
    private byte[] evaluate(byte[] token, long nowMs) throws SaslException {
        if (renewing.isPresent() && !renewing.get().mechanism().equals(server.getMechanismName())) {
            throw new SaslAuthenticationException("SASL mechanism '" + server.getMechanismName() + "' requested by client is not "
                    + "supported for re-authentication of mechanism '" + renewing.get().mechanism() + "'");
        }
        byte[] challenge = server.evaluateResponse(token);
        if (server.isComplete()) {
            KafkaPrincipal authenticated = principals.build(new SaslAuthenticationContext(server, protocol, client, listener.value(), sslSession));
            authenticated.tokenAuthenticated(SaslMechanisms.loggedInWithToken(server)); // as Kafka's authenticator marks it
            if (renewing.isPresent() && !renewing.get().principal().equals(authenticated)) {
                throw new SaslAuthenticationException("Cannot change principals during re-authentication from "
                        + renewing.get().principal() + ": " + authenticated);
            }
            log.debug("{} {} from {} with {} on listener {}", authenticated, renewing.isPresent() ? "re-authenticated" : "authenticated",
                    client.getHostAddress(), server.getMechanismName(), listener.value());
            // A delegation token's login: kafka-clients' SCRAM server finds the token but leaves its expiry to us.
            Long credentialExpiresAtMs = (Long) server.getNegotiatedProperty(SaslInternalConfigs.CREDENTIAL_LIFETIME_MS_SASL_NEGOTIATED_PROPERTY_KEY);
            if (credentialExpiresAtMs != null && credentialExpiresAtMs < nowMs) {
                throw new SaslAuthenticationException("Authentication failed: the delegation token expired at " + credentialExpiresAtMs);
            }
            principal = authenticated;
            renewing = Optional.empty();
            state = State.COMPLETE;
            long lifetimeMs = mechanisms.maxReauthMs(server.getMechanismName());
            // A bare-token client cannot re-authenticate either: as in Kafka, it is closed when its session ends, which
            // is no later than its token's expiry.
            sessionExpiresAtMs = lifetimeMs > 0 ? Math.min(nowMs + lifetimeMs, credentialExpiresAtMs == null ? NO_EXPIRY : credentialExpiresAtMs)
                    : NO_EXPIRY;
        }
        return challenge == null ? new byte[0] : challenge;
    }

    private long sessionLifetimeMs(long nowMs) {
        return sessionExpiresAtMs == NO_EXPIRY ? 0 : sessionExpiresAtMs - nowMs;
    }

    /** As Kafka does: the client learns that its credentials were refused (or why a re-login was), the log says more. */
    private String clientMessage(Exception e) {
        if (e instanceof SaslAuthenticationException) {
            return e.getMessage();
        }
        return "Authentication failed during " + (renewing.isPresent() ? "re-authentication" : "authentication")
                + " due to invalid credentials with SASL mechanism " + server.getMechanismName();
    }

    private static Send respond(RequestHeader header, ApiMessage body) {
        return SendBuilder.buildResponseSend(header.toResponseHeader(), body, header.apiVersion());
    }

    private void disposeServer() {
        if (server != null) {
            try {
                server.dispose();
            } catch (SaslException ignored) {
                // nothing to release
            }
        }
    }

    @Override
    public void close() {
        disposeServer();
    }
}

package io.tributary.broker.api;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import io.tributary.broker.network.Session;
import io.tributary.broker.security.DelegationTokens;
import org.apache.kafka.common.message.CreateDelegationTokenRequestData;
import org.apache.kafka.common.message.CreateDelegationTokenResponseData;
import org.apache.kafka.common.message.DescribeDelegationTokenRequestData;
import org.apache.kafka.common.message.DescribeDelegationTokenResponseData;
import org.apache.kafka.common.message.ExpireDelegationTokenRequestData;
import org.apache.kafka.common.message.ExpireDelegationTokenResponseData;
import org.apache.kafka.common.message.RenewDelegationTokenRequestData;
import org.apache.kafka.common.message.RenewDelegationTokenResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.CreateDelegationTokenResponse;
import org.apache.kafka.common.requests.DescribeDelegationTokenResponse;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.apache.kafka.common.security.token.delegation.TokenInformation;

/**
 * CreateDelegationToken, RenewDelegationToken, ExpireDelegationToken and DescribeDelegationToken (KIP-48) over
 * {@link DelegationTokens}, with Kafka's answers: DELEGATION_TOKEN_REQUEST_NOT_ALLOWED to a client that may not ask
 * for tokens at all ({@link #mayRequestTokens}), DELEGATION_TOKEN_AUTH_DISABLED without
 * {@code delegation.token.secret.key}, INVALID_PRINCIPAL_TYPE for a renewer that is no user. Describe lists the tokens
 * the request's owners own or renew (every token when it names none); which of those the sender may see is the
 * authorizer's step ({@code AclRequestAuthorization}), as creating a token for another owner is.
 */
final class DelegationTokenHandler {
    private final Optional<DelegationTokens> tokens;

    /** @param tokens empty when delegation tokens are disabled */
    DelegationTokenHandler(Optional<DelegationTokens> tokens) {
        this.tokens = tokens;
    }

    /**
     * As Kafka: tokens are for clients that proved who they are with their own credentials, so neither PLAINTEXT, nor
     * SSL without a client certificate, nor a connection that logged in with a token may create, renew, expire or
     * describe them.
     */
    static boolean mayRequestTokens(Session session) {
        KafkaPrincipal principal = session.principal();
        return !principal.tokenAuthenticated() && session.protocol() != SecurityProtocol.PLAINTEXT
                && !(session.protocol() == SecurityProtocol.SSL && principal.equals(KafkaPrincipal.ANONYMOUS));
    }

    /** The owner a CreateDelegationToken asks for: the sender unless the request (v3+) names another. */
    static KafkaPrincipal owner(CreateDelegationTokenRequestData request, KafkaPrincipal sender) {
        return request.ownerPrincipalName() == null || request.ownerPrincipalName().isEmpty() ? sender
                : new KafkaPrincipal(request.ownerPrincipalType(), request.ownerPrincipalName());
    }

    CreateDelegationTokenResponseData create(CreateDelegationTokenRequestData request, Session session, short version) {
        KafkaPrincipal requester = session.principal();
        KafkaPrincipal owner = owner(request, requester);
        List<KafkaPrincipal> renewers = request.renewers().stream()
                .map(renewer -> new KafkaPrincipal(renewer.principalType(), renewer.principalName())).toList();
        Errors refusal = !mayRequestTokens(session) ? Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED
                : renewers.stream().anyMatch(renewer -> !renewer.getPrincipalType().equals(KafkaPrincipal.USER_TYPE))
                ? Errors.INVALID_PRINCIPAL_TYPE
                : tokens.isEmpty() ? Errors.DELEGATION_TOKEN_AUTH_DISABLED : Errors.NONE;
        if (refusal != Errors.NONE) {
            return CreateDelegationTokenResponse.prepareResponse(version, 0, refusal, owner, requester).data();
        }
        DelegationToken token = tokens.get().create(owner, requester, renewers, request.maxLifetimeMs());
        TokenInformation information = token.tokenInfo();
        return CreateDelegationTokenResponse.prepareResponse(version, 0, Errors.NONE, owner, requester, information.issueTimestamp(),
                information.expiryTimestamp(), information.maxTimestamp(), information.tokenId(), ByteBuffer.wrap(token.hmac())).data();
    }

    RenewDelegationTokenResponseData renew(RenewDelegationTokenRequestData request, Session session) {
        DelegationTokens.Outcome outcome = refusal(session)
                .orElseGet(() -> tokens.get().renew(session.principal(), request.hmac(), request.renewPeriodMs()));
        return new RenewDelegationTokenResponseData().setErrorCode(outcome.error().code()).setExpiryTimestampMs(outcome.expiryTimestamp());
    }

    ExpireDelegationTokenResponseData expire(ExpireDelegationTokenRequestData request, Session session) {
        DelegationTokens.Outcome outcome = refusal(session)
                .orElseGet(() -> tokens.get().expire(session.principal(), request.hmac(), request.expiryTimePeriodMs()));
        return new ExpireDelegationTokenResponseData().setErrorCode(outcome.error().code()).setExpiryTimestampMs(outcome.expiryTimestamp());
    }

    DescribeDelegationTokenResponseData describe(DescribeDelegationTokenRequestData request, Session session, short version) {
        Optional<DelegationTokens.Outcome> refusal = refusal(session);
        if (refusal.isPresent()) {
            return new DescribeDelegationTokenResponse(version, 0, refusal.get().error()).data();
        }
        List<KafkaPrincipal> owners = request.owners() == null ? null : request.owners().stream()
                .map(owner -> new KafkaPrincipal(owner.principalType(), owner.principalName())).toList();
        List<DelegationToken> described = tokens.get().all().stream()
                .filter(token -> owners == null || owners.stream().anyMatch(owner -> token.tokenInfo().ownerOrRenewer(owner)))
                .toList();
        return new DescribeDelegationTokenResponse(version, 0, Errors.NONE, described).data();
    }

    /** Why a renewal, an expiry or a describe is refused before its token is looked at, if it is. */
    private Optional<DelegationTokens.Outcome> refusal(Session session) {
        if (!mayRequestTokens(session)) {
            return Optional.of(DelegationTokens.Outcome.failed(Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED));
        }
        if (tokens.isEmpty()) {
            return Optional.of(DelegationTokens.Outcome.failed(Errors.DELEGATION_TOKEN_AUTH_DISABLED));
        }
        return Optional.empty();
    }
}

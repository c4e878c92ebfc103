package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.testing.FakeTime;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.apache.kafka.common.security.token.delegation.TokenInformation;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delegation tokens against a real ZooKeeper, two brokers' worth of {@link DelegationTokens} sharing it: Kafka's node
 * layout, HMAC and lifetimes, the renewal and expiry rules of Kafka's DelegationTokenManager, and the watch that tells
 * the other broker.
 */
@Timeout(60)
class DelegationTokensTest {
    private static final String SECRET = "token-secret";
    private static final long MAX_LIFETIME_MS = 10_000;
    private static final long EXPIRY_TIME_MS = 3_000;
    private static final DelegationTokenSettings SETTINGS = new DelegationTokenSettings(Optional.of(SECRET), MAX_LIFETIME_MS,
            EXPIRY_TIME_MS, 3_600_000);
    private static final KafkaPrincipal ALICE = new KafkaPrincipal("User", "alice");
    private static final KafkaPrincipal BOB = new KafkaPrincipal("User", "bob");
    private static final KafkaPrincipal EVE = new KafkaPrincipal("User", "eve");

    private final FakeTime time = new FakeTime();
    private EmbeddedZooKeeper zookeeper;
    private ZkClient zk;
    private DelegationTokens broker0;
    private DelegationTokens broker1;

    @BeforeEach
    void start(@TempDir Path dir) throws Exception {
        zookeeper = EmbeddedZooKeeper.start(dir, 0);
        zk = ZkClient.connect(zookeeper.connectString(), 10_000, 10_000);
        broker0 = DelegationTokens.start(zk, SETTINGS, time, 10_000);
        broker1 = DelegationTokens.start(zk, SETTINGS, time, 10_000);
    }

    @AfterEach
    void stop() {
        broker1.close();
        broker0.close();
        zk.close();
        zookeeper.close();
    }

    @Test
    void aTokenIsStoredAsKafkaStoredItAndTheOtherBrokerLearnsOfItWithItsScramCredentials() throws Exception {
        DelegationToken token = broker0.create(ALICE, BOB, List.of(new KafkaPrincipal("User", "carl/x")), 0);
        TokenInformation info = token.tokenInfo();

        Mac mac = Mac.getInstance("HmacSHA512");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA512"));
        assertThat(token.hmac()).isEqualTo(mac.doFinal(info.tokenId().getBytes(StandardCharsets.UTF_8)));
        assertThat(info.issueTimestamp()).isEqualTo(time.milliseconds());
        assertThat(info.maxTimestamp()).isEqualTo(time.milliseconds() + MAX_LIFETIME_MS);
        assertThat(info.expiryTimestamp()).isEqualTo(time.milliseconds() + EXPIRY_TIME_MS);

        JsonNode stored = new ObjectMapper().readTree(zk.read("/delegation_token/tokens/" + info.tokenId()).orElseThrow().data());
        assertThat(stored.path("version").asInt()).isEqualTo(3);
        assertThat(stored.path("owner").asText()).isEqualTo("User%3Aalice");
        assertThat(stored.path("tokenRequester").asText()).isEqualTo("User%3Abob");
        assertThat(stored.path("renewers").get(0).asText()).isEqualTo("User%3Acarl%2Fx");
        assertThat(stored.path("tokenId").asText()).isEqualTo(info.tokenId());
        assertThat(stored.path("expiryTimestamp").asLong()).isEqualTo(info.expiryTimestamp());
        assertThat(stored.has("hmac")).as("the HMAC is never stored").isFalse();

        Awaitility.await("broker 1 learns of the token").atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(broker1.cache().owner(info.tokenId())).as("the name a token login authenticates as").isEqualTo("alice");
            assertThat(broker1.cache().credential("SCRAM-SHA-256", info.tokenId())).isNotNull();
            assertThat(broker1.cache().credential("SCRAM-SHA-512", info.tokenId())).isNotNull();
            assertThat(broker1.cache().tokenForHmac(token.hmacAsBase64String())).isEqualTo(info);
        });
        assertThat(broker1.all()).containsExactly(token);
    }

    @Test
    void aTokenAsksForAtMostTheMaximumLifetimeAndLivesTheExpiryTimeAtMostThat() {
        assertThat(broker0.create(ALICE, ALICE, List.of(), MAX_LIFETIME_MS * 5).tokenInfo().maxTimestamp())
                .isEqualTo(time.milliseconds() + MAX_LIFETIME_MS);
        TokenInformation short_ = broker0.create(ALICE, ALICE, List.of(), 1_000).tokenInfo();
        assertThat(short_.maxTimestamp()).isEqualTo(time.milliseconds() + 1_000);
        assertThat(short_.expiryTimestamp()).isEqualTo(short_.maxTimestamp());
    }

    @Test
    void theOwnerAndTheRenewersRenewUpToTheMaximumLifetimeAndNobodyElseNorAnExpiredToken() throws Exception {
        DelegationToken token = broker0.create(ALICE, ALICE, List.of(BOB), 0);
        long created = time.milliseconds();
        awaitKnownTo(broker1, token);

        time.sleep(2_000);
        assertThat(broker1.renew(BOB, token.hmac(), 5_000)).isEqualTo(new DelegationTokens.Outcome(Errors.NONE, created + 7_000));
        assertThat(readExpiry(token)).isEqualTo(created + 7_000);
        assertThat(broker0.renew(ALICE, token.hmac(), -1)).as("no period: delegation.token.expiry.time.ms")
                .isEqualTo(new DelegationTokens.Outcome(Errors.NONE, created + 2_000 + EXPIRY_TIME_MS));
        assertThat(broker0.renew(EVE, token.hmac(), 1_000).error()).isEqualTo(Errors.DELEGATION_TOKEN_OWNER_MISMATCH);
        assertThat(broker0.renew(ALICE, "not a token's hmac".getBytes(StandardCharsets.UTF_8), 1_000).error())
                .isEqualTo(Errors.DELEGATION_TOKEN_NOT_FOUND);

        time.sleep(2_000);
        assertThat(broker0.renew(ALICE, token.hmac(), 60_000)).as("capped by the maximum lifetime")
                .isEqualTo(new DelegationTokens.Outcome(Errors.NONE, created + MAX_LIFETIME_MS));
        time.sleep(MAX_LIFETIME_MS);
        assertThat(broker0.renew(ALICE, token.hmac(), 1_000).error()).isEqualTo(Errors.DELEGATION_TOKEN_EXPIRED);
    }

    @Test
    void expiringAtOnceDeletesTheTokenEverywhereAndAPeriodSetsItsExpiry() throws Exception {
        DelegationToken kept = broker0.create(ALICE, ALICE, List.of(BOB), 0);
        DelegationToken gone = broker0.create(ALICE, ALICE, List.of(), 0);
        awaitKnownTo(broker1, gone);

        assertThat(broker1.expire(BOB, kept.hmac(), 500)).isEqualTo(new DelegationTokens.Outcome(Errors.NONE, time.milliseconds() + 500));
        assertThat(broker0.expire(EVE, gone.hmac(), -1).error()).isEqualTo(Errors.DELEGATION_TOKEN_OWNER_MISMATCH);
        assertThat(broker1.expire(ALICE, gone.hmac(), -1)).isEqualTo(new DelegationTokens.Outcome(Errors.NONE, time.milliseconds()));

        assertThat(zk.read("/delegation_token/tokens/" + gone.tokenInfo().tokenId())).isEmpty();
        Awaitility.await("broker 0 forgets the expired token").atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(broker0.cache().token(gone.tokenInfo().tokenId())).isNull());
        assertThat(broker0.renew(ALICE, gone.hmac(), 1_000).error()).isEqualTo(Errors.DELEGATION_TOKEN_NOT_FOUND);
        time.sleep(501);
        assertThat(broker0.expire(ALICE, kept.hmac(), 1_000).error()).isEqualTo(Errors.DELEGATION_TOKEN_EXPIRED);
    }

    @Test
    void theExpiryCheckDeletesOnlyTheExpiredTokens() throws Exception {
        DelegationToken shortLived = broker0.create(ALICE, ALICE, List.of(), 1_000);
        DelegationToken longLived = broker0.create(ALICE, ALICE, List.of(), 0);
        awaitKnownTo(broker1, longLived);
        time.sleep(1_001);

        broker1.removeExpired();

        assertThat(zk.read("/delegation_token/tokens/" + shortLived.tokenInfo().tokenId())).isEmpty();
        assertThat(zk.read("/delegation_token/tokens/" + longLived.tokenInfo().tokenId())).isPresent();
        Awaitility.await("both brokers forget the expired token").atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(List.of(broker0.all(), broker1.all())).allSatisfy(all -> assertThat(all).containsExactly(longLived)));
    }

    @Test
    void aChangeOfATokenDeletedSinceItWasReadIsAChangeLostNotAnError() {
        DelegationToken token = broker0.create(ALICE, ALICE, List.of(), 0);
        DelegationTokenStore store = new DelegationTokenStore(zk);
        int version = store.read(token.tokenInfo().tokenId()).orElseThrow().version();
        assertThat(store.delete(token.tokenInfo().tokenId(), version)).isTrue();

        assertThat(store.update(token.tokenInfo(), version)).isFalse();
    }

    private static void awaitKnownTo(DelegationTokens broker, DelegationToken token) {
        Awaitility.await("the token reaches the other broker").atMost(Duration.ofSeconds(10))
                .until(() -> broker.cache().token(token.tokenInfo().tokenId()) != null);
    }

    private long readExpiry(DelegationToken token) {
        return DelegationTokenStore.parse(zk.read(DelegationTokenStore.tokenPath(token.tokenInfo().tokenId())).orElseThrow().data())
                .expiryTimestamp();
    }
}

package io.tributary.broker.security;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.broker.cluster.ZkClient;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.token.delegation.TokenInformation;
import org.apache.kafka.common.utils.internals.SecurityUtils;
import org.apache.kafka.common.utils.internals.Sanitizer;
import org.apache.zookeeper.KeeperException;

/**
 * Delegation tokens in ZooKeeper, where Kafka's ZooKeeper mode kept them: {@code /delegation_token/tokens/<tokenId>}
 * holds {@code {"version":3,"owner":"User:alice","tokenRequester":"User:alice","renewers":["User:bob"],
 * "issueTimestamp":...,"maxTimestamp":...,"expiryTimestamp":...,"tokenId":"..."}} (principals sanitized with
 * kafka-clients' {@link Sanitizer}). The HMAC is never stored: every broker computes it from the secret key. Changes
 * are compare-and-set on the node's version, so that two brokers renewing or expiring one token do not undo each
 * other. Thread-safe.
 */
final class DelegationTokenStore {
    static final String TOKENS_PATH = "/delegation_token/tokens";
    private static final int VERSION = 3;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** A token as stored, with the node version a change must expect. */
    record Stored(TokenInformation token, int version) {
    }

    private final ZkClient zk;

    DelegationTokenStore(ZkClient zk) {
        this.zk = zk;
    }

    static String tokenPath(String tokenId) {
        return TOKENS_PATH + "/" + tokenId;
    }

    Optional<Stored> read(String tokenId) {
        return zk.read(tokenPath(tokenId)).map(node -> new Stored(parse(node.data()), node.version()));
    }

    /** @return false if a token of this id exists already */
    boolean create(TokenInformation token) {
        return zk.createIfAbsent(tokenPath(token.tokenId()), json(token));
    }

    /** @return false if the token changed (or was deleted) since {@code version} */
    boolean update(TokenInformation token, int version) {
        try {
            return zk.compareAndSet(tokenPath(token.tokenId()), json(token), version).isPresent();
        } catch (TimeoutException e) {
            if (e.getCause() instanceof KeeperException.NoNodeException) {
                return false; // expired and deleted meanwhile (by any broker's expiry check): the caller reads it again
            }
            throw e;
        }
    }

    /** @return false if the token changed (or was deleted) since {@code version} */
    boolean delete(String tokenId, int version) {
        return zk.deleteIfVersion(tokenPath(tokenId), version);
    }

    static byte[] json(TokenInformation token) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("version", VERSION);
        node.put("owner", Sanitizer.sanitize(token.ownerAsString()));
        node.put("tokenRequester", Sanitizer.sanitize(token.tokenRequesterAsString()));
        ArrayNode renewers = node.putArray("renewers");
        token.renewersAsString().forEach(renewer -> renewers.add(Sanitizer.sanitize(renewer)));
        node.put("issueTimestamp", token.issueTimestamp());
        node.put("maxTimestamp", token.maxTimestamp());
        node.put("expiryTimestamp", token.expiryTimestamp());
        node.put("tokenId", token.tokenId());
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Kafka's versions 1 to 3; before 3 the requester was the owner. */
    static TokenInformation parse(byte[] data) {
        JsonNode node;
        try {
            node = MAPPER.readTree(data);
        } catch (IOException e) {
            throw new IllegalArgumentException("unreadable delegation token: " + e.getMessage(), e);
        }
        int version = node.path("version").asInt();
        if (version < 1 || version > VERSION) {
            throw new IllegalArgumentException("unknown delegation token version " + version);
        }
        KafkaPrincipal owner = principal(node.path("owner").asText());
        KafkaPrincipal requester = version >= 3 ? principal(node.path("tokenRequester").asText()) : owner;
        List<KafkaPrincipal> renewers = new ArrayList<>();
        node.path("renewers").forEach(renewer -> renewers.add(principal(renewer.asText())));
        return new TokenInformation(node.path("tokenId").asText(), owner, requester, renewers, node.path("issueTimestamp").asLong(),
                node.path("maxTimestamp").asLong(), node.path("expiryTimestamp").asLong());
    }

    private static KafkaPrincipal principal(String sanitized) {
        return SecurityUtils.parseKafkaPrincipal(Sanitizer.desanitize(sanitized));
    }
}

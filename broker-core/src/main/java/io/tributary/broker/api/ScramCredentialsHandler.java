package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import io.tributary.broker.security.ScramUsers;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.CredentialInfo;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;

/**
 * DescribeUserScramCredentials and AlterUserScramCredentials (KIP-554) over {@link ScramUsers}, so Kafka's
 * {@code kafka-configs --alter --add-config 'SCRAM-SHA-256=[password=...]' --entity-type users} works. The client
 * sends the salted password, never the password; the broker derives the stored and server keys from it with
 * kafka-clients' {@link ScramFormatter}. Errors are Kafka's, per user.
 */
final class ScramCredentialsHandler {
    private final ScramUsers users;
    private final Optional<KafkaPrincipal> brokerPrincipal;

    /** @param brokerPrincipal the brokers' own login, whose credentials only it may change here */
    ScramCredentialsHandler(ScramUsers users, Optional<KafkaPrincipal> brokerPrincipal) {
        this.users = users;
        this.brokerPrincipal = brokerPrincipal;
    }

    DescribeUserScramCredentialsResponseData describe(DescribeUserScramCredentialsRequestData request) {
        Map<String, Map<ScramMechanism, ScramCredential>> all = users.all();
        DescribeUserScramCredentialsResponseData response = new DescribeUserScramCredentialsResponseData();
        if (request.users() == null || request.users().isEmpty()) {
            all.forEach((user, credentials) -> {
                if (!credentials.isEmpty()) {
                    response.results().add(described(user, credentials));
                }
            });
            return response;
        }
        Set<String> seen = new HashSet<>();
        Set<String> duplicates = new HashSet<>();
        request.users().forEach(user -> {
            if (!seen.add(user.name())) {
                duplicates.add(user.name());
            }
        });
        for (String user : seen) {
            Map<ScramMechanism, ScramCredential> credentials = all.getOrDefault(user, Map.of());
            if (duplicates.contains(user)) {
                response.results().add(new DescribeUserScramCredentialsResult().setUser(user)
                        .setErrorCode(Errors.DUPLICATE_RESOURCE.code()).setErrorMessage("Cannot describe SCRAM credentials for the same user twice in a single request: " + user));
            } else if (credentials.isEmpty()) {
                response.results().add(new DescribeUserScramCredentialsResult().setUser(user)
                        .setErrorCode(Errors.RESOURCE_NOT_FOUND.code()).setErrorMessage("Attempt to describe a user credential that does not exist: " + user));
            } else {
                response.results().add(described(user, credentials));
            }
        }
        return response;
    }

    private static DescribeUserScramCredentialsResult described(String user, Map<ScramMechanism, ScramCredential> credentials) {
        List<CredentialInfo> infos = new ArrayList<>();
        credentials.forEach((mechanism, credential) -> infos.add(new CredentialInfo()
                .setMechanism(mechanism.type()).setIterations(credential.iterations())));
        return new DescribeUserScramCredentialsResult().setUser(user).setCredentialInfos(infos);
    }

    AlterUserScramCredentialsResponseData alter(AlterUserScramCredentialsRequestData request, KafkaPrincipal requester) {
        Map<String, Errors> errors = new HashMap<>();
        Map<String, String> messages = new HashMap<>();
        Map<String, Integer> alterationsPerUserMechanism = new HashMap<>();
        request.deletions().forEach(d -> alterationsPerUserMechanism.merge(d.name() + "\0" + d.mechanism(), 1, Integer::sum));
        request.upsertions().forEach(u -> alterationsPerUserMechanism.merge(u.name() + "\0" + u.mechanism(), 1, Integer::sum));
        alterationsPerUserMechanism.forEach((key, count) -> {
            if (count > 1) {
                String user = key.substring(0, key.indexOf('\0'));
                errors.put(user, Errors.DUPLICATE_RESOURCE);
                messages.put(user, "A user credential cannot be altered twice in the same request");
            }
        });
        // Follower fetches are trusted by the brokers' principal: a client that could set that user's password
        // could log in as a broker. Its credentials are bootstrapped with bin/tributary users instead.
        brokerPrincipal.filter(broker -> !broker.equals(requester)).ifPresent(broker -> {
            request.deletions().forEach(d -> refuseBrokerUser(errors, messages, d.name(), broker));
            request.upsertions().forEach(u -> refuseBrokerUser(errors, messages, u.name(), broker));
        });
        Map<String, Map<ScramMechanism, ScramCredential>> existing = users.all();
        for (AlterUserScramCredentialsRequestData.ScramCredentialDeletion deletion : request.deletions()) {
            ScramMechanism mechanism = mechanism(deletion.mechanism());
            if (errors.containsKey(deletion.name())) {
                continue;
            }
            if (deletion.name().isEmpty()) {
                fail(errors, messages, deletion.name(), Errors.UNACCEPTABLE_CREDENTIAL, "Username must not be empty");
            } else if (mechanism == null) {
                fail(errors, messages, deletion.name(), Errors.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism");
            } else if (!existing.getOrDefault(deletion.name(), Map.of()).containsKey(mechanism)) {
                fail(errors, messages, deletion.name(), Errors.RESOURCE_NOT_FOUND,
                        "Attempt to delete a user credential that does not exist");
            }
        }
        for (AlterUserScramCredentialsRequestData.ScramCredentialUpsertion upsertion : request.upsertions()) {
            ScramMechanism mechanism = mechanism(upsertion.mechanism());
            if (errors.containsKey(upsertion.name())) {
                continue;
            }
            if (upsertion.name().isEmpty()) {
                fail(errors, messages, upsertion.name(), Errors.UNACCEPTABLE_CREDENTIAL, "Username must not be empty");
            } else if (mechanism == null) {
                fail(errors, messages, upsertion.name(), Errors.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism");
            } else if (upsertion.iterations() < mechanism.minIterations() || upsertion.iterations() > mechanism.maxIterations()) {
                fail(errors, messages, upsertion.name(), Errors.UNACCEPTABLE_CREDENTIAL, "Iterations must be between "
                        + mechanism.minIterations() + " and " + mechanism.maxIterations() + " for " + mechanism.mechanismName());
            }
        }
        for (AlterUserScramCredentialsRequestData.ScramCredentialDeletion deletion : request.deletions()) {
            if (!errors.containsKey(deletion.name())) {
                users.remove(deletion.name(), mechanism(deletion.mechanism()));
            }
        }
        for (AlterUserScramCredentialsRequestData.ScramCredentialUpsertion upsertion : request.upsertions()) {
            if (!errors.containsKey(upsertion.name())) {
                ScramMechanism mechanism = mechanism(upsertion.mechanism());
                users.put(upsertion.name(), mechanism, credential(mechanism, upsertion));
            }
        }
        AlterUserScramCredentialsResponseData response = new AlterUserScramCredentialsResponseData();
        Set<String> named = new java.util.LinkedHashSet<>();
        request.deletions().forEach(d -> named.add(d.name()));
        request.upsertions().forEach(u -> named.add(u.name()));
        for (String user : named) {
            Errors error = errors.getOrDefault(user, Errors.NONE);
            response.results().add(new AlterUserScramCredentialsResult().setUser(user).setErrorCode(error.code())
                    .setErrorMessage(messages.get(user)));
        }
        return response;
    }

    private static ScramCredential credential(ScramMechanism mechanism, AlterUserScramCredentialsRequestData.ScramCredentialUpsertion upsertion) {
        try {
            return new ScramFormatter(mechanism).generateCredential(upsertion.salt(), upsertion.saltedPassword(), upsertion.iterations());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(mechanism.hashAlgorithm() + " is not available in this JVM", e);
        }
    }

    private static void refuseBrokerUser(Map<String, Errors> errors, Map<String, String> messages, String user,
                                         KafkaPrincipal broker) {
        if (user.equals(broker.getName())) {
            errors.put(user, Errors.CLUSTER_AUTHORIZATION_FAILED);
            messages.put(user, "only the brokers' own principal may change the credentials of " + broker
                    + "; use bin/tributary users with --zookeeper");
        }
    }

    private static void fail(Map<String, Errors> errors, Map<String, String> messages, String user, Errors error, String message) {
        errors.put(user, error);
        messages.put(user, message);
    }

    private static ScramMechanism mechanism(byte type) {
        for (ScramMechanism mechanism : ScramMechanism.values()) {
            if (mechanism.type() == type) {
                return mechanism;
            }
        }
        return null;
    }
}

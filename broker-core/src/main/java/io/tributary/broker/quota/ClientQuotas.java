package io.tributary.broker.quota;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.quota.ClientQuotaEntity;

/**
 * A snapshot of the configured quotas, and which one applies to a client. As in Kafka, the most specific entity
 * that sets a quota of the type wins, in this order: user and client-id, user and default client-id, user, default
 * user and client-id, default user and default client-id, default user, client-id, default client-id. The clients
 * an entity covers share one measured rate; a default entity gives each user or client-id a rate of its own.
 * Immutable.
 */
public final class ClientQuotas {
    public static final ClientQuotas NONE = new ClientQuotas(Map.of());

    private final Map<ClientQuotaEntity, Map<String, Double>> byEntity;

    /** The quota that applies: its bound, and the user and client-id whose rate counts against it ("" for any). */
    record Applied(double bound, String user, String clientId) {
    }

    /** One level of the search: whether it names the user and the client-id, and whether as defaults. */
    private enum Level {
        USER_CLIENT(true, false, true, false), USER_DEFAULT_CLIENT(true, false, true, true), USER(true, false, false, false),
        DEFAULT_USER_CLIENT(true, true, true, false), DEFAULT_USER_DEFAULT_CLIENT(true, true, true, true),
        DEFAULT_USER(true, true, false, false), CLIENT(false, false, true, false), DEFAULT_CLIENT(false, false, true, true);

        final boolean hasUser;
        final boolean defaultUser;
        final boolean hasClient;
        final boolean defaultClient;

        Level(boolean hasUser, boolean defaultUser, boolean hasClient, boolean defaultClient) {
            this.hasUser = hasUser;
            this.defaultUser = defaultUser;
            this.hasClient = hasClient;
            this.defaultClient = defaultClient;
        }

        ClientQuotaEntity entity(String user, String clientId) {
            Map<String, String> entries = new HashMap<>();
            if (hasUser) {
                entries.put(ClientQuotaEntity.USER, defaultUser ? null : user);
            }
            if (hasClient) {
                entries.put(ClientQuotaEntity.CLIENT_ID, defaultClient ? null : clientId);
            }
            return new ClientQuotaEntity(entries);
        }
    }

    private static final List<Level> SEARCH_ORDER = List.of(Level.values());

    public ClientQuotas(Map<ClientQuotaEntity, Map<String, Double>> byEntity) {
        this.byEntity = Map.copyOf(byEntity);
    }

    /** The quota of {@code type} for a client, if any entity sets one. */
    Optional<Applied> find(String user, String clientId, QuotaType type) {
        if (byEntity.isEmpty()) {
            return Optional.empty();
        }
        for (Level level : SEARCH_ORDER) {
            Double bound = byEntity.getOrDefault(level.entity(user, clientId), Map.of()).get(type.configKey());
            if (bound != null) {
                return Optional.of(new Applied(bound, level.hasUser ? user : "", level.hasClient ? clientId : ""));
            }
        }
        return Optional.empty();
    }
}

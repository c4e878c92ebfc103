package io.tributary.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.Test;

class ClientQuotasTest {
    private static ClientQuotaEntity entity(String user, String clientId, boolean hasUser, boolean hasClient) {
        Map<String, String> entries = new HashMap<>();
        if (hasUser) {
            entries.put(ClientQuotaEntity.USER, user);
        }
        if (hasClient) {
            entries.put(ClientQuotaEntity.CLIENT_ID, clientId);
        }
        return new ClientQuotaEntity(entries);
    }

    private static Map<String, Double> produce(double rate) {
        return Map.of(QuotaType.PRODUCE.configKey(), rate);
    }

    @Test
    void theMostSpecificEntityThatSetsTheQuotaWinsAndDefaultsMeasureEachClientApart() {
        ClientQuotas quotas = new ClientQuotas(Map.of(
                entity(null, null, false, true), produce(1),            // default client-id
                entity(null, "batch", false, true), produce(2),         // client-id batch
                entity(null, null, true, false), produce(3),            // default user
                entity("alice", null, true, false), produce(4),         // user alice
                entity("alice", "batch", true, true), Map.of(QuotaType.FETCH.configKey(), 5.0)));

        assertThat(quotas.find("alice", "batch", QuotaType.PRODUCE)).contains(new ClientQuotas.Applied(4, "alice", ""));
        assertThat(quotas.find("alice", "batch", QuotaType.FETCH)).contains(new ClientQuotas.Applied(5, "alice", "batch"));
        assertThat(quotas.find("bob", "batch", QuotaType.PRODUCE)).contains(new ClientQuotas.Applied(3, "bob", ""));
        assertThat(quotas.find("bob", "batch", QuotaType.REQUEST)).isEmpty();

        ClientQuotas clientsOnly = new ClientQuotas(Map.of(
                entity(null, null, false, true), produce(1),
                entity(null, "batch", false, true), produce(2)));
        assertThat(clientsOnly.find("ANONYMOUS", "batch", QuotaType.PRODUCE)).contains(new ClientQuotas.Applied(2, "", "batch"));
        assertThat(clientsOnly.find("ANONYMOUS", "other", QuotaType.PRODUCE)).contains(new ClientQuotas.Applied(1, "", "other"));
        assertThat(ClientQuotas.NONE.find("ANONYMOUS", "other", QuotaType.PRODUCE)).isEmpty();
    }
}

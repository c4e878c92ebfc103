package io.tributary.broker.api;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.tributary.broker.cluster.ClientQuotaStore;
import io.tributary.broker.quota.QuotaType;
import org.apache.kafka.common.message.AlterClientQuotasRequestData;
import org.apache.kafka.common.message.AlterClientQuotasRequestData.EntryData;
import org.apache.kafka.common.message.AlterClientQuotasRequestData.OpData;
import org.apache.kafka.common.message.AlterClientQuotasResponseData;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData.ComponentData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData.EntityData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData.ValueData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.requests.DescribeClientQuotasRequest;
import org.apache.kafka.server.config.QuotaConfig;

/**
 * DescribeClientQuotas and AlterClientQuotas over the quotas in ZooKeeper (what {@code kafka-configs
 * --entity-type clients|users|ips} uses). Entities are a user, a client-id, or both, each a name or the default, with
 * the keys {@code producer_byte_rate}, {@code consumer_byte_rate} (whole bytes per second) and
 * {@code request_percentage}, each above zero; or an ip (an address or a host that resolves, or the default) with the
 * key {@code connection_creation_rate} (whole connections per second, 0 or more), as in Kafka. Every broker applies a
 * change when ZooKeeper shows it.
 */
final class ClientQuotasHandler {
    private static final Set<String> ENTITY_TYPES = Set.of(ClientQuotaEntity.USER, ClientQuotaEntity.CLIENT_ID, ClientQuotaEntity.IP);
    private static final String CONNECTION_CREATION_RATE = QuotaConfig.IP_CONNECTION_RATE_OVERRIDE_CONFIG;

    private final ClientQuotaStore store;

    ClientQuotasHandler(ClientQuotaStore store) {
        this.store = store;
    }

    DescribeClientQuotasResponseData describe(DescribeClientQuotasRequestData request) {
        DescribeClientQuotasResponseData response = new DescribeClientQuotasResponseData();
        for (ComponentData component : request.components()) {
            if (!ENTITY_TYPES.contains(component.entityType())) {
                return response.setErrorCode(Errors.INVALID_REQUEST.code())
                        .setErrorMessage("Unsupported quota entity type " + component.entityType());
            }
        }
        boolean ip = request.components().stream().anyMatch(component -> component.entityType().equals(ClientQuotaEntity.IP));
        if (ip && request.components().size() > 1) {
            return response.setErrorCode(Errors.INVALID_REQUEST.code()).setErrorMessage("Invalid entity filter component "
                    + "combination, IP filter component should not be used with user or clientId filter component.");
        }
        List<DescribeClientQuotasResponseData.EntryData> entries = new ArrayList<>();
        store.all().forEach((entity, quotas) -> {
            if (matches(entity, request.components(), request.strict())) {
                List<EntityData> entityData = new ArrayList<>();
                entity.entries().forEach((type, name) -> entityData.add(new EntityData().setEntityType(type).setEntityName(name)));
                List<ValueData> values = new ArrayList<>();
                quotas.forEach((key, value) -> values.add(new ValueData().setKey(key).setValue(value)));
                entries.add(new DescribeClientQuotasResponseData.EntryData().setEntity(entityData).setValues(values));
            }
        });
        return response.setEntries(entries);
    }

    private static boolean matches(ClientQuotaEntity entity, List<ComponentData> components, boolean strict) {
        Map<String, String> entries = entity.entries();
        for (ComponentData component : components) {
            if (!entries.containsKey(component.entityType())) {
                return false;
            }
            String name = entries.get(component.entityType());
            boolean ok = switch (component.matchType()) {
                case DescribeClientQuotasRequest.MATCH_TYPE_EXACT -> component.match() != null && component.match().equals(name);
                case DescribeClientQuotasRequest.MATCH_TYPE_DEFAULT -> name == null;
                default -> true; // MATCH_TYPE_SPECIFIED: any name of that type
            };
            if (!ok) {
                return false;
            }
        }
        return !strict || entries.size() == components.size();
    }

    AlterClientQuotasResponseData alter(AlterClientQuotasRequestData request) {
        AlterClientQuotasResponseData response = new AlterClientQuotasResponseData();
        for (EntryData entry : request.entries()) {
            Map<String, String> names = new HashMap<>();
            List<AlterClientQuotasResponseData.EntityData> echoed = new ArrayList<>();
            for (AlterClientQuotasRequestData.EntityData entity : entry.entity()) {
                names.put(entity.entityType(), entity.entityName());
                echoed.add(new AlterClientQuotasResponseData.EntityData().setEntityType(entity.entityType())
                        .setEntityName(entity.entityName()));
            }
            AlterClientQuotasResponseData.EntryData result = new AlterClientQuotasResponseData.EntryData().setEntity(echoed);
            String problem = problemWith(names, entry.ops());
            if (problem != null) {
                result.setErrorCode(Errors.INVALID_REQUEST.code()).setErrorMessage(problem);
            } else if (!request.validateOnly()) {
                Map<String, Double> changes = new LinkedHashMap<>();
                for (OpData op : entry.ops()) {
                    changes.put(op.key(), op.remove() ? null : op.value());
                }
                store.alter(new ClientQuotaEntity(names), changes);
            }
            response.entries().add(result);
        }
        return response;
    }

    /** @return why the alteration is refused, or null if it is valid */
    private static String problemWith(Map<String, String> names, List<OpData> ops) {
        if (names.isEmpty() || !ENTITY_TYPES.containsAll(names.keySet())) {
            return "A quota entity is a user, a client-id, both, or an ip; got " + names.keySet();
        }
        if (names.containsKey(ClientQuotaEntity.IP)) {
            return names.size() > 1 ? "An ip quota entity names nothing else; got " + names.keySet()
                    : problemWithIpQuotas(names.get(ClientQuotaEntity.IP), ops);
        }
        for (OpData op : ops) {
            var type = QuotaType.forKey(op.key());
            if (type.isEmpty()) {
                return "Unknown quota key " + op.key() + "; known: producer_byte_rate, consumer_byte_rate, request_percentage";
            }
            if (op.remove()) {
                continue;
            }
            if (!(op.value() > 0) || Double.isInfinite(op.value())) {
                return op.key() + " must be above 0, not " + op.value();
            }
            if (type.get() != QuotaType.REQUEST && op.value() != Math.rint(op.value())) {
                return op.key() + " is a whole number of bytes per second, not " + op.value();
            }
        }
        return null;
    }

    private static String problemWithIpQuotas(String ip, List<OpData> ops) {
        if (ip != null) {
            try {
                InetAddress.getByName(ip);
            } catch (UnknownHostException e) {
                return ip + " is not a valid IP or resolvable host.";
            }
        }
        for (OpData op : ops) {
            if (!op.key().equals(CONNECTION_CREATION_RATE)) {
                return "Unknown quota key " + op.key() + " for an ip; known: " + CONNECTION_CREATION_RATE;
            }
            if (!op.remove() && !(op.value() >= 0 && op.value() <= Integer.MAX_VALUE && op.value() == Math.rint(op.value()))) {
                return CONNECTION_CREATION_RATE + " is a whole number of connections per second from 0 to "
                        + Integer.MAX_VALUE + ", not " + op.value();
            }
        }
        return null;
    }
}

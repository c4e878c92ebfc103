package io.tributary.broker.api;

import static org.apache.kafka.common.acl.AclOperation.ALTER;
import static org.apache.kafka.common.acl.AclOperation.ALTER_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.CLUSTER_ACTION;
import static org.apache.kafka.common.acl.AclOperation.CREATE;
import static org.apache.kafka.common.acl.AclOperation.DELETE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.IDEMPOTENT_WRITE;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The authorized-operations bit fields of Metadata (topics, and the cluster up to v10), DescribeCluster and
 * DescribeGroups, as Kafka computes them: bit {@code 1 << code} for each operation of the resource type the sender
 * may do ({@code AclOperation.code()}). Without an authorizer every operation of the type is allowed.
 */
final class AuthorizedOperations {
    /** Kafka's operations per resource type (its {@code AclEntry.supportedOperations}). */
    private static final Map<ResourceType, Set<AclOperation>> OPERATIONS = Map.of(
            ResourceType.TOPIC, EnumSet.of(READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS),
            ResourceType.GROUP, EnumSet.of(READ, DESCRIBE, DELETE, DESCRIBE_CONFIGS, ALTER_CONFIGS),
            ResourceType.CLUSTER, EnumSet.of(CREATE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE, ALTER, DESCRIBE));

    private AuthorizedOperations() {
    }

    /** Every operation of {@code type}: what a broker without an authorizer answers. */
    static int all(ResourceType type) {
        return allowed(type, operation -> true);
    }

    /** The operations of {@code type} that {@code may} allows. */
    static int allowed(ResourceType type, Predicate<AclOperation> may) {
        int bits = 0;
        for (AclOperation operation : OPERATIONS.get(type)) {
            if (may.test(operation)) {
                bits |= 1 << operation.code();
            }
        }
        return bits;
    }
}

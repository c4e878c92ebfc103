package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import io.tributary.broker.network.Session;
import io.tributary.broker.security.AclAuthorizer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;

/** What the sender of one request may do, asked of the {@link AclAuthorizer}; and the helpers of the per-API checks. */
final class RequestAccess {
    /** The completion of a request nothing was taken out of: the response goes out as the handler made it. */
    static final UnaryOperator<ApiMessage> UNCHANGED = message -> message;

    private final AclAuthorizer authorizer;
    private final Session session;
    private final TopicLookup lookup;

    RequestAccess(AclAuthorizer authorizer, Session session, TopicLookup lookup) {
        this.authorizer = authorizer;
        this.session = session;
        this.lookup = lookup;
    }

    boolean may(AclOperation operation, ResourceType type, String name) {
        return authorizer.authorize(session.principal(), host(), operation, type, name);
    }

    /** Whether the sender may do {@code operation} on some resource of the type (Kafka's authorizeByResourceType). */
    boolean mayOnSome(AclOperation operation, ResourceType type) {
        return authorizer.authorizeAny(session.principal(), host(), operation, type);
    }

    private String host() {
        return session.clientAddress().getHostAddress();
    }

    boolean mayOnCluster(AclOperation operation) {
        return may(operation, ResourceType.CLUSTER, Resource.CLUSTER_NAME);
    }

    void requireOnCluster(AclOperation operation) {
        if (!mayOnCluster(operation)) {
            throw new ClusterAuthorizationException("Request requires " + operation + " on the cluster");
        }
    }

    void requireOnGroup(AclOperation operation, String group) {
        if (!may(operation, ResourceType.GROUP, group)) {
            throw new GroupAuthorizationException("Not authorized to access group: " + group);
        }
    }

    /** May the sender do {@code operation} on the topic named (or, by id, identified)? An unknown id is the handler's to report. */
    boolean mayOnTopic(AclOperation operation, String name, Uuid id, boolean byId) {
        return byId ? mayOnNamedTopic(operation, null, id) : may(operation, ResourceType.TOPIC, name);
    }

    /** The same for a request that names a topic or, where the name is empty, gives its id. */
    boolean mayOnNamedTopic(AclOperation operation, String name, Uuid id) {
        String topic = name != null && !name.isEmpty() ? name : lookup.find(null, id, true).topic().map(t -> t.name()).orElse(null);
        return topic == null || may(operation, ResourceType.TOPIC, topic);
    }

    /** Whether a topic of this name exists (for the checks that differ for missing topics, as auto-creation's). */
    boolean topicExists(String name) {
        return lookup.find(name, null, false).topic().isPresent();
    }

    /** Removes the items {@code allowed} refuses from {@code items}; @return those removed */
    static <T> List<T> removeDenied(Collection<T> items, Predicate<T> allowed) {
        List<T> denied = new ArrayList<>();
        for (Iterator<T> it = items.iterator(); it.hasNext(); ) {
            T item = it.next();
            if (!allowed.test(item)) {
                denied.add(item);
                it.remove();
            }
        }
        return denied;
    }
}

package io.tributary.broker.security;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.cluster.ZkClient;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.SecurityUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka's ACL authorizer ({@code authorizer.class.name=io.tributary.broker.security.AclAuthorizer}) over the ACLs
 * of {@link AclStore}. Every broker keeps them in memory, current through a watch of the change notifications, so a
 * change made on one broker holds on all of them within moments. An operation is allowed as Kafka decides: a super
 * user ({@code super.users}) may do anything; otherwise the ACLs that match the resource (literal name, the
 * wildcard {@code *}, prefixed patterns) are found — none at all means {@code allow.everyone.if.no.acl.found} — and a
 * DENY for the principal (or {@code User:*}) and host (or {@code *}) wins over any ALLOW. ALL covers every
 * operation; READ, WRITE, DELETE and ALTER imply DESCRIBE, ALTER_CONFIGS implies DESCRIBE_CONFIGS. Thread-safe.
 */
public final class AclAuthorizer implements AutoCloseable {
    /** The name users configure in {@code authorizer.class.name}. */
    public static final String CLASS_NAME = AclAuthorizer.class.getName();
    /** Apache Kafka's ZooKeeper-mode authorizer, over the same nodes: accepted so its server.properties keep working. */
    public static final String KAFKA_ZOOKEEPER_CLASS_NAME = "kafka.security.authorizer.AclAuthorizer";
    private static final String WILDCARD_PRINCIPAL = "User:*";
    private static final String WILDCARD_HOST = "*";
    /** A literal name no ACL is meant to name, checked first by {@link #authorizeAny} (Kafka's own choice of name). */
    private static final String UNNAMED_RESOURCE = "hardcode";
    /** Notifications older than this are deleted (every broker has long read them), as Kafka does. */
    private static final long CHANGE_EXPIRATION_MS = 15 * 60 * 1000L;
    private static final Logger log = LoggerFactory.getLogger(AclAuthorizer.class);

    private final AclStore store;
    private final ZkClient zk;
    private final Set<KafkaPrincipal> superUsers;
    private final boolean allowEveryoneIfNoAclFound;
    private final Time time;
    private final List<CuratorCache> changeWatches = new ArrayList<>();
    /** After a lost session, announcements may have expired unseen: read everything again. */
    private final ConnectionStateListener reloadOnReconnect = (client, state) -> {
        if (state == ConnectionState.RECONNECTED) {
            reloadAllQuietly();
        }
    };
    private volatile AclSnapshot acls = AclSnapshot.EMPTY;

    private AclAuthorizer(ZkClient zk, Set<KafkaPrincipal> superUsers, boolean allowEveryoneIfNoAclFound, Time time) {
        this.zk = zk;
        this.store = new AclStore(zk);
        this.superUsers = Set.copyOf(superUsers);
        this.allowEveryoneIfNoAclFound = allowEveryoneIfNoAclFound;
        this.time = time;
    }

    /** Starts watching the change notifications, then loads every ACL; returns once both are done. */
    public static AclAuthorizer start(ZkClient zk, Set<KafkaPrincipal> superUsers, boolean allowEveryoneIfNoAclFound, Time time,
                                      long timeoutMs) throws InterruptedException {
        AclAuthorizer authorizer = new AclAuthorizer(zk, superUsers, allowEveryoneIfNoAclFound, time);
        try {
            authorizer.watch(AclStore.LITERAL_CHANGES_PATH, timeoutMs);
            authorizer.watch(AclStore.EXTENDED_CHANGES_PATH, timeoutMs);
            authorizer.reloadAll();
            zk.curator().getConnectionStateListenable().addListener(authorizer.reloadOnReconnect);
            return authorizer;
        } catch (InterruptedException | RuntimeException e) {
            authorizer.close();
            throw e;
        }
    }

    private void watch(String changesPath, long timeoutMs) throws InterruptedException {
        CuratorCache changes = CuratorCache.build(zk.curator(), changesPath);
        changeWatches.add(changes);
        CountDownLatch loaded = new CountDownLatch(1);
        changes.listenable().addListener(CuratorCacheListener.builder()
                .forCreates(node -> changed(changesPath, changes, node))
                .forInitialized(loaded::countDown)
                .build());
        changes.start();
        if (!loaded.await(timeoutMs, TimeUnit.MILLISECONDS)) {
            throw new TimeoutException("could not read " + changesPath + " from ZooKeeper within " + timeoutMs + " ms");
        }
    }

    private void changed(String changesPath, CuratorCache changes, ChildData node) {
        if (node.getPath().equals(changesPath)) {
            return;
        }
        try {
            refresh(AclStore.changedPattern(changesPath, node.getData()));
        } catch (RuntimeException e) {
            log.warn("ignoring the ACL change notification {}: {}", node.getPath(), e.getMessage());
        }
        deleteExpired(changesPath, changes);
    }

    /** Deletes the announcements older than {@link #CHANGE_EXPIRATION_MS} (any broker may; the first one does). */
    private void deleteExpired(String changesPath, CuratorCache changes) {
        long now = time.milliseconds();
        changes.stream()
                .filter(old -> !old.getPath().equals(changesPath) && old.getStat() != null
                        && now - old.getStat().getCtime() > CHANGE_EXPIRATION_MS)
                .forEach(old -> {
                    try {
                        zk.deleteIfVersion(old.getPath(), old.getStat().getVersion());
                    } catch (RuntimeException e) {
                        log.debug("could not delete the expired notification {}: {}", old.getPath(), e.getMessage());
                    }
                });
    }

    /** Reads one pattern's ACLs again. Synchronized: of two refreshes, the later read is the one kept. */
    private synchronized void refresh(ResourcePattern pattern) {
        acls = acls.with(pattern, store.read(pattern));
    }

    private synchronized void reloadAll() {
        acls = AclSnapshot.of(store.all());
    }

    private void reloadAllQuietly() {
        try {
            reloadAll();
        } catch (RuntimeException e) {
            log.warn("could not read the ACLs again after reconnecting to ZooKeeper; they may be stale until the next change: {}",
                    e.getMessage());
        }
    }

    /** Whether {@code principal}, connected from {@code host} (an IP address), may do {@code operation} on the resource. */
    public boolean authorize(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type, String name) {
        if (superUsers.contains(principal)) {
            return true;
        }
        List<Set<AccessControlEntry>> matching = acls.matching(type, name);
        if (matching.isEmpty()) {
            return allowEveryoneIfNoAclFound;
        }
        String who = principal.toString();
        for (Set<AccessControlEntry> entries : matching) {
            for (AccessControlEntry entry : entries) {
                if (entry.permissionType() == AclPermissionType.DENY && appliesTo(entry, who, host)
                        && (entry.operation() == operation || entry.operation() == AclOperation.ALL)) {
                    return false;
                }
            }
        }
        for (Set<AccessControlEntry> entries : matching) {
            for (AccessControlEntry entry : entries) {
                if (entry.permissionType() == AclPermissionType.ALLOW && appliesTo(entry, who, host)
                        && allows(entry.operation(), operation)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether the principal may do {@code operation} on some resource of the type, decided as Kafka's
     * {@code Authorizer.authorizeByResourceType} (an idempotent producer needs WRITE on some topic): allowed if an
     * ordinary check of a resource no ACL names is (super users, allow.everyone.if.no.acl.found, wildcard
     * ALLOWs); else denied by a DENY on the wildcard name; else allowed if some ALLOW remains that no literal or
     * prefixed DENY covers (a DENY of the same literal name, or of a prefix of the allowed name).
     */
    public boolean authorizeAny(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type) {
        if (authorize(principal, host, operation, type, UNNAMED_RESOURCE)) {
            return true;
        }
        String who = principal.toString();
        Set<String> deniedLiterals = new HashSet<>();
        Set<String> deniedPrefixes = new HashSet<>();
        List<ResourcePattern> allowed = new ArrayList<>();
        acls.forEach((pattern, entries) -> {
            if (pattern.resourceType() != type) {
                return;
            }
            for (AccessControlEntry entry : entries) {
                if (!appliesTo(entry, who, host)) {
                    continue;
                }
                if (entry.permissionType() == AclPermissionType.DENY
                        && (entry.operation() == operation || entry.operation() == AclOperation.ALL)) {
                    (pattern.patternType() == PatternType.PREFIXED ? deniedPrefixes : deniedLiterals).add(pattern.name());
                } else if (entry.permissionType() == AclPermissionType.ALLOW && allows(entry.operation(), operation)) {
                    allowed.add(pattern);
                }
            }
        });
        if (deniedLiterals.contains(ResourcePattern.WILDCARD_RESOURCE)) {
            return false;
        }
        return allowed.stream().anyMatch(pattern -> !deniedPrefixes.stream().anyMatch(pattern.name()::startsWith)
                && (pattern.patternType() == PatternType.PREFIXED || !deniedLiterals.contains(pattern.name())));
    }

    private static boolean appliesTo(AccessControlEntry entry, String principal, String host) {
        return (entry.principal().equals(principal) || entry.principal().equals(WILDCARD_PRINCIPAL))
                && (entry.host().equals(host) || entry.host().equals(WILDCARD_HOST));
    }

    /** Whether an ALLOW of {@code granted} allows {@code wanted}. */
    private static boolean allows(AclOperation granted, AclOperation wanted) {
        if (granted == wanted || granted == AclOperation.ALL) {
            return true;
        }
        return switch (wanted) {
            case DESCRIBE -> granted == AclOperation.READ || granted == AclOperation.WRITE || granted == AclOperation.DELETE
                    || granted == AclOperation.ALTER;
            case DESCRIBE_CONFIGS -> granted == AclOperation.ALTER_CONFIGS;
            default -> false;
        };
    }

    /** Adds the bindings (already validated); each broker sees them once its watch fires, this one at once. */
    public void create(List<AclBinding> bindings) {
        Map<ResourcePattern, List<AccessControlEntry>> byPattern = new LinkedHashMap<>();
        bindings.forEach(binding -> byPattern.computeIfAbsent(binding.pattern(), p -> new ArrayList<>()).add(binding.entry()));
        byPattern.forEach((pattern, entries) -> {
            store.update(pattern, before -> {
                Set<AccessControlEntry> after = new LinkedHashSet<>(before);
                after.addAll(entries);
                return after;
            });
            refresh(pattern);
        });
    }

    /** Removes every ACL that matches the filter. @return those removed */
    public List<AclBinding> delete(AclBindingFilter filter) {
        List<AclBinding> removed = new ArrayList<>();
        for (ResourcePattern pattern : acls.patterns()) {
            if (!filter.patternFilter().matches(pattern)) {
                continue;
            }
            Set<AccessControlEntry> before = store.update(pattern, entries -> {
                Set<AccessControlEntry> kept = new LinkedHashSet<>(entries);
                kept.removeIf(entry -> filter.matches(new AclBinding(pattern, entry)));
                return kept;
            });
            before.stream().map(entry -> new AclBinding(pattern, entry)).filter(filter::matches).forEach(removed::add);
            refresh(pattern);
        }
        return removed;
    }

    /** The ACLs that match the filter. */
    public List<AclBinding> describe(AclBindingFilter filter) {
        List<AclBinding> found = new ArrayList<>();
        acls.forEach((pattern, entries) -> entries.forEach(entry -> {
            AclBinding binding = new AclBinding(pattern, entry);
            if (filter.matches(binding)) {
                found.add(binding);
            }
        }));
        return found;
    }

    /** The super users as {@code super.users} lists them: principals separated by semicolons. */
    public static Set<KafkaPrincipal> parseSuperUsers(String value) {
        Set<KafkaPrincipal> principals = new HashSet<>();
        for (String principal : value.split(";")) {
            if (!principal.isBlank()) {
                principals.add(SecurityUtils.parseKafkaPrincipal(principal.trim()));
            }
        }
        return principals;
    }

    @Override
    public void close() {
        zk.curator().getConnectionStateListenable().removeListener(reloadOnReconnect);
        changeWatches.forEach(CuratorCache::close);
    }
}

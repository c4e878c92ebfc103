package io.tributary.broker.cluster;

import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * The ACL a node gets when the broker or one of our tools creates it, as Kafka's ZooKeeper mode chose them
 * ({@code zookeeper.set.acl}). Secure: the creator (the SASL identity of the brokers' ZooKeeper login) may do
 * everything and anyone else may only read, except below {@code /config/users} (SCRAM credentials, user quotas),
 * {@code /config/brokers} (dynamic broker configs, which may hold passwords) and {@code /delegation_token/tokens} (who
 * holds which token, and until when), which nobody else may even read. Open:
 * everyone may do everything (ZooKeeper's {@code OPEN_ACL_UNSAFE}). Paths are relative to the chroot. Immutable.
 */
public final class ZooKeeperAcls implements ACLProvider {
    public static final ZooKeeperAcls OPEN = new ZooKeeperAcls(false);
    public static final ZooKeeperAcls SECURE = new ZooKeeperAcls(true);
    /** Kafka's sensitive roots (ZkData.SensitiveRootPaths). */
    public static final List<String> SENSITIVE_ROOTS = List.of("/config/users", "/config/brokers", "/delegation_token/tokens");

    private final boolean secure;

    private ZooKeeperAcls(boolean secure) {
        this.secure = secure;
    }

    public static ZooKeeperAcls of(boolean secure) {
        return secure ? SECURE : OPEN;
    }

    public boolean secure() {
        return secure;
    }

    @Override
    public List<ACL> getDefaultAcl() {
        return getAclForPath("/");
    }

    @Override
    public List<ACL> getAclForPath(String path) {
        if (!secure) {
            return ZooDefs.Ids.OPEN_ACL_UNSAFE;
        }
        List<ACL> acls = new ArrayList<>(ZooDefs.Ids.CREATOR_ALL_ACL);
        if (!sensitive(path)) {
            acls.addAll(ZooDefs.Ids.READ_ACL_UNSAFE);
        }
        return acls;
    }

    static boolean sensitive(String path) {
        return SENSITIVE_ROOTS.stream().anyMatch(root -> path.equals(root) || path.startsWith(root + "/"));
    }

    @Override
    public String toString() {
        return secure ? "secure (creator all, others read; " + SENSITIVE_ROOTS + " creator only)" : "open";
    }
}

package io.tributary.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.Test;

/** Kafka's secure ACLs: world-readable nodes, but none of the secrets below its sensitive roots. */
class ZooKeeperAclsTest {
    @Test
    void theSensitiveRootsAndWhatLiesBelowThemAreTheCreatorsAlone() {
        for (String path : new String[] {"/config/users/alice", "/config/brokers/<default>", "/delegation_token/tokens",
                "/delegation_token/tokens/x5ZiV0-wTZ6cT2pgpLx0Rw"}) {
            assertThat(ZooKeeperAcls.SECURE.getAclForPath(path)).as(path).isEqualTo(ZooDefs.Ids.CREATOR_ALL_ACL);
        }
        assertThat(ZooKeeperAcls.SECURE.getAclForPath("/delegation_token")).containsAll(ZooDefs.Ids.READ_ACL_UNSAFE);
        assertThat(ZooKeeperAcls.SECURE.getAclForPath("/config/topics/orders")).containsAll(ZooDefs.Ids.READ_ACL_UNSAFE);
        assertThat(ZooKeeperAcls.OPEN.getAclForPath("/delegation_token/tokens/x")).isEqualTo(ZooDefs.Ids.OPEN_ACL_UNSAFE);
    }
}

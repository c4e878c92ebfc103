package io.tributary.broker.admin;

import java.util.List;
import java.util.concurrent.Callable;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.cluster.ZooKeeperAcls;
import io.tributary.broker.cluster.ZooKeeperLogin;
import org.apache.zookeeper.KeeperException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/tributary zookeeper-security-migration --zookeeper.acl secure|unsecure --zookeeper.connect HOST:PORT[/chroot]}:
 * Kafka's tool of that name. Sets the ACL of every node of the cluster (below the chroot, the chroot included; without
 * one, everything but ZooKeeper's own {@code /zookeeper}) to what a broker with {@code zookeeper.set.acl=true} gives
 * new nodes ({@code secure}), or opens them all again ({@code unsecure}). For a cluster that turns
 * {@code zookeeper.set.acl} on: nodes created before stay open until this runs. It must run with the brokers' own
 * ZooKeeper login (the same JAAS {@code Client} section), since a secured node belongs to whoever secured it.
 * Exit codes: 0 done, 1 failed, 2 bad command line.
 */
@Command(name = "tributary zookeeper-security-migration", mixinStandardHelpOptions = true,
        description = "Secure (or open) the ACLs of every ZooKeeper node of a Tributary cluster, as zookeeper.set.acl=true creates them.")
public final class ZooKeeperSecurityMigration implements Callable<Integer> {
    private static final int ZOOKEEPER_TIMEOUT_MS = 15_000;
    private static final String ZOOKEEPER_OWN_TREE = "/zookeeper";

    enum Mode { secure, unsecure }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    @Option(names = "--zookeeper.acl", required = true, paramLabel = "secure|unsecure",
            description = "secure: as zookeeper.set.acl=true creates nodes; unsecure: open to everyone.")
    Mode mode;
    @Option(names = "--zookeeper.connect", required = true, paramLabel = "HOST:PORT[/chroot]",
            description = "The cluster's ZooKeeper (zookeeper.connect of the brokers).")
    String connect;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new ZooKeeperSecurityMigration()).setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.setExecutionExceptionHandler((error, failed, parseResult) -> {
            failed.getErr().println("tributary zookeeper-security-migration: " + error.getMessage());
            return 1;
        });
        commandLine.setParameterExceptionHandler((error, args) -> {
            error.getCommandLine().getErr().println("tributary zookeeper-security-migration: " + error.getMessage()
                    + " (see 'tributary zookeeper-security-migration --help')");
            return 2;
        });
        return commandLine;
    }

    @Override
    public Integer call() throws Exception {
        ZooKeeperAcls acls = ZooKeeperAcls.of(mode == Mode.secure);
        if (acls.secure() && ZooKeeperLogin.section().isEmpty()) {
            throw new IllegalStateException("securing needs the brokers' SASL login to ZooKeeper: " + ZooKeeperLogin.describeMissing());
        }
        int nodes;
        try (ZkClient zk = ZkClient.connect(connect, ZOOKEEPER_TIMEOUT_MS, ZOOKEEPER_TIMEOUT_MS, acls)) {
            nodes = connect.contains("/") ? setRecursively(zk, "/", acls) : setBelowRoot(zk, acls);
        }
        spec.commandLine().getOut().println(nodes + " nodes " + (acls.secure() ? "secured" : "opened") + " at " + connect);
        return 0;
    }

    private static int setBelowRoot(ZkClient zk, ZooKeeperAcls acls) throws Exception {
        int nodes = 0;
        for (String child : zk.children("/")) {
            if (!("/" + child).equals(ZOOKEEPER_OWN_TREE)) {
                nodes += setRecursively(zk, "/" + child, acls);
            }
        }
        return nodes;
    }

    /** Parents first, so a node's children stay readable to this client while it descends. */
    private static int setRecursively(ZkClient zk, String path, ZooKeeperAcls acls) throws Exception {
        try {
            zk.curator().setACL().withACL(acls.getAclForPath(path)).forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return 0; // deleted meanwhile
        }
        int nodes = 1;
        List<String> children = zk.children(path);
        for (String child : children) {
            nodes += setRecursively(zk, (path.equals("/") ? "" : path) + "/" + child, acls);
        }
        return nodes;
    }
}

package io.tributary.broker.admin;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.security.ScramUsers;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/tributary users add|list|delete ... --zookeeper HOST:PORT[/chroot]}: SCRAM users written straight into
 * ZooKeeper ({@code /config/users/<user>}, Kafka's layout and format), for the first user of a cluster whose
 * listeners all need authentication. Later users can also be managed through any broker with Kafka's
 * {@code kafka-configs --entity-type users}. Every broker sees a change at once through its watch.
 * Exit codes: 0 done, 1 failed, 2 bad command line; errors are one line on stderr.
 */
@Command(name = "tributary users", mixinStandardHelpOptions = true,
        description = "Manage SCRAM users in ZooKeeper (salted and iterated; the password is never stored).",
        subcommands = {UsersCommand.Add.class, UsersCommand.ListUsers.class, UsersCommand.Delete.class})
public final class UsersCommand implements Runnable {
    private static final int ZOOKEEPER_TIMEOUT_MS = 15_000;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new UsersCommand());
        commandLine.setExecutionExceptionHandler((error, failed, parseResult) -> {
            failed.getErr().println("tributary users: " + error.getMessage());
            return 1;
        });
        commandLine.setParameterExceptionHandler((error, args) -> {
            error.getCommandLine().getErr().println("tributary users: " + error.getMessage()
                    + " (see '" + error.getCommandLine().getCommandSpec().qualifiedName() + " --help')");
            return 2;
        });
        return commandLine;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: add, list or delete");
    }

    /** The {@code --zookeeper} option every subcommand takes. */
    static class ZooKeeperOption {
        @Option(names = "--zookeeper", required = true, paramLabel = "HOST:PORT[/chroot]",
                description = "The cluster's ZooKeeper (zookeeper.connect of the brokers).")
        String connect;

        /** Runs {@code work} on the cluster's users over a connection that is closed afterwards. */
        <T> T withUsers(UsersWork<T> work) throws InterruptedException {
            try (ZkClient zk = ZkClient.connect(connect, ZOOKEEPER_TIMEOUT_MS, ZOOKEEPER_TIMEOUT_MS)) {
                return work.apply(new ScramUsers(zk));
            }
        }
    }

    /** What a subcommand does with the users in ZooKeeper. */
    @FunctionalInterface
    interface UsersWork<T> {
        T apply(ScramUsers users);
    }

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = "Add a user, or set a new password for one mechanism of an existing user.")
    static final class Add implements Callable<Integer> {
        @CommandLine.Mixin
        ZooKeeperOption zookeeper;
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Parameters(index = "0", paramLabel = "NAME")
        String name;
        @Option(names = "--mechanism", required = true, description = "SCRAM-SHA-256 or SCRAM-SHA-512.")
        String mechanism;
        @Option(names = "--password", required = true)
        String password;
        @Option(names = "--iterations", defaultValue = "" + ScramUsers.DEFAULT_ITERATIONS,
                description = "Hash iterations (at least 4096; default ${DEFAULT-VALUE}).")
        int iterations;

        @Override
        public Integer call() throws Exception {
            ScramMechanism scram = ScramMechanism.forMechanismName(mechanism);
            if (scram == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "unknown mechanism " + mechanism
                        + ": SCRAM-SHA-256 or SCRAM-SHA-512");
            }
            if (name.isEmpty()) {
                throw new CommandLine.ParameterException(spec.commandLine(), "a user name must not be empty");
            }
            ScramCredential credential;
            try {
                credential = ScramUsers.credential(scram, password, iterations);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
            zookeeper.withUsers(users -> {
                users.put(name, scram, credential);
                return null;
            });
            spec.commandLine().getOut().println("user " + name + ": " + scram.mechanismName() + " set (" + iterations + " iterations)");
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List users and their SCRAM mechanisms.")
    static final class ListUsers implements Callable<Integer> {
        @CommandLine.Mixin
        ZooKeeperOption zookeeper;
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            for (Map.Entry<String, Map<ScramMechanism, ScramCredential>> user : zookeeper.withUsers(ScramUsers::all).entrySet()) {
                StringBuilder line = new StringBuilder(user.getKey());
                user.getValue().forEach((mechanism, credential) ->
                        line.append('\t').append(mechanism.mechanismName()).append(" iterations=").append(credential.iterations()));
                out.println(line);
            }
            return 0;
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a user and all its credentials.")
    static final class Delete implements Callable<Integer> {
        @CommandLine.Mixin
        ZooKeeperOption zookeeper;
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Override
        public Integer call() throws Exception {
            if (!zookeeper.withUsers(users -> users.delete(name))) {
                throw new IllegalArgumentException("no user " + name);
            }
            spec.commandLine().getOut().println("user " + name + " deleted");
            return 0;
        }
    }
}

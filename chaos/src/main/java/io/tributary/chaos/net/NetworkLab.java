package io.tributary.chaos.net;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A private test network: one Linux bridge in the root namespace and one network namespace per
 * host, each joined to the bridge by a veth pair, with addresses from 198.18.0.0/15 (the range
 * reserved for benchmarking, never routed). This JVM reaches every host through the bridge's own
 * address, so it plays the clients. A partition is a pair of blackhole routes inside the two
 * namespaces: the hosts lose each other, and nobody else.
 *
 * <p>Names carry this JVM's pid ({@code tch<pid in base 36>-...}), so runs side by side do not meet, and a run
 * removes the leftovers of runs whose JVM is gone. {@link #close()} removes everything; so does a
 * shutdown hook, should the JVM be stopped before it. Not thread-safe.
 */
public final class NetworkLab implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NetworkLab.class);
    private static final String PREFIX = "tch";
    private static final Pattern OWNED = Pattern.compile(PREFIX + "([0-9a-z]+)-.*");
    private static final Pattern ADDRESS = Pattern.compile("inet (198\\.1[89]\\.\\d+)\\.\\d+/");

    private final String token;
    private final String bridge;
    private final String subnet;
    private final Map<String, Host> hosts = new LinkedHashMap<>();
    private final List<String> vethEnds = new ArrayList<>();
    private final Set<List<String>> blackholes = new HashSet<>();
    private final Thread cleanUpOnExit = new Thread(this::removeAll, "network-lab-clean-up");
    private boolean closed;

    private NetworkLab(String token, String subnet) {
        this.token = token;
        this.bridge = PREFIX + token + "-br";
        this.subnet = subnet;
    }

    /** Removes leftovers of dead runs, then makes the bridge with a free /24 of 198.18.0.0/15. */
    public static NetworkLab create() {
        removeLeftovers();
        String token = Long.toString(ProcessHandle.current().pid(), 36);
        NetworkLab lab = new NetworkLab(token, freeSubnet());
        Runtime.getRuntime().addShutdownHook(lab.cleanUpOnExit);
        try {
            IpCommand.run("link", "add", lab.bridge, "type", "bridge");
            IpCommand.run("addr", "add", lab.subnet + ".1/24", "dev", lab.bridge);
            IpCommand.run("link", "set", lab.bridge, "up");
        } catch (RuntimeException e) {
            lab.close();
            throw e;
        }
        return lab;
    }

    /** The address of this JVM on the lab network (the clients' side). */
    public String clientAddress() {
        return subnet + ".1";
    }

    /** Adds a host: a namespace, a veth pair to the bridge and the address {@code <subnet>.<number>}. */
    public Host addHost(String name, int number) {
        if (number < 2 || number > 254) {
            throw new IllegalArgumentException("host number must be in 2..254: " + number);
        }
        String namespace = PREFIX + token + "-" + name;
        String outside = PREFIX + token + "-" + number;
        Host host = new Host(name, namespace, subnet + "." + number);
        IpCommand.run("netns", "add", namespace);
        hosts.put(name, host);
        IpCommand.run("link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", namespace);
        vethEnds.add(outside);
        IpCommand.run("link", "set", outside, "master", bridge);
        IpCommand.run("link", "set", outside, "up");
        IpCommand.run("-n", namespace, "addr", "add", host.address() + "/24", "dev", "eth0");
        IpCommand.run("-n", namespace, "link", "set", "eth0", "up");
        IpCommand.run("-n", namespace, "link", "set", "lo", "up");
        return host;
    }

    /** The command that runs {@code command} inside {@code host}'s namespace (exec, so the pid is the command's). */
    public List<String> inside(Host host, List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of(IpCommand.IP_PATH, "netns", "exec", host.namespace()));
        wrapped.addAll(command);
        return wrapped;
    }

    /** Cuts the link between two hosts both ways; everyone else still reaches both. */
    public void cut(Host a, Host b) {
        blackhole(a, b);
        blackhole(b, a);
    }

    /** Restores every link cut so far. */
    public void healAll() {
        for (List<String> route : List.copyOf(blackholes)) {
            IpCommand.run("-n", route.get(0), "route", "del", "blackhole", route.get(1) + "/32");
            blackholes.remove(route);
        }
    }

    private void blackhole(Host from, Host to) {
        List<String> route = List.of(from.namespace(), to.address());
        if (blackholes.add(route)) {
            IpCommand.run("-n", from.namespace(), "route", "add", "blackhole", to.address() + "/32");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        removeAll();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanUpOnExit);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or has run: nothing left to do
        }
    }

    private void removeAll() {
        // Deleting one end removes the pair; a namespace that some process still holds would otherwise keep it.
        for (String veth : vethEnds) {
            IpCommand.tolerant("link", "del", veth);
        }
        for (Host host : hosts.values()) {
            IpCommand.tolerant("netns", "del", host.namespace());
        }
        IpCommand.tolerant("link", "del", bridge);
    }

    /** Namespaces and links named by runs whose JVM no longer exists. */
    private static void removeLeftovers() {
        for (String line : IpCommand.run("netns", "list").split("\n")) {
            String name = line.split(" ")[0].trim();
            if (ownerIsGone(name)) {
                log.info("removing namespace {} left by a run that is gone", name);
                IpCommand.tolerant("netns", "del", name);
            }
        }
        for (String line : IpCommand.run("-o", "link", "show").split("\n")) {
            String[] fields = line.split(": ");
            if (fields.length > 1) {
                String name = fields[1].split("@")[0].trim();
                if (ownerIsGone(name)) {
                    log.info("removing link {} left by a run that is gone", name);
                    IpCommand.tolerant("link", "del", name);
                }
            }
        }
    }

    private static boolean ownerIsGone(String name) {
        Matcher owned = OWNED.matcher(name);
        if (!owned.matches()) {
            return false;
        }
        Optional<ProcessHandle> owner = ProcessHandle.of(Long.parseLong(owned.group(1), 36));
        return owner.isEmpty() || !owner.get().isAlive();
    }

    /** A /24 of 198.18.0.0/15 that no interface of this machine uses yet. */
    private static String freeSubnet() {
        Set<String> taken = new HashSet<>();
        Matcher address = ADDRESS.matcher(IpCommand.run("-o", "-4", "addr", "show"));
        while (address.find()) {
            taken.add(address.group(1));
        }
        int start = (int) (ProcessHandle.current().pid() % 256);
        for (int i = 0; i < 512; i++) {
            int n = (start + i) % 512;
            String candidate = "198." + (18 + n / 256) + "." + (n % 256);
            if (!taken.contains(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("every /24 of 198.18.0.0/15 is in use on this machine");
    }
}

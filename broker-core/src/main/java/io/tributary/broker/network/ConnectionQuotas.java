package io.tributary.broker.network;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Counts the open connections, in all and per client address, against the {@link ConnectionLimits}. A
 * connection beyond a limit is refused (the acceptor closes it at once) and counted, unless it comes from
 * another broker's address: replication must never be locked out by clients using up the limits. The acceptor
 * opens, processors close. Thread-safe.
 */
final class ConnectionQuotas {
    private final ConnectionLimits limits;
    private final Predicate<InetAddress> isBroker;
    private final Map<InetAddress, Integer> perAddress = new HashMap<>();
    private int total;
    private long refused;

    /** @param isBroker whether an address is one of the cluster's brokers (asked only when a limit is reached) */
    ConnectionQuotas(ConnectionLimits limits, Predicate<InetAddress> isBroker) {
        this.limits = limits;
        this.isBroker = isBroker;
    }

    /** @return true if a connection from {@code address} may open (it is then counted until {@link #closed}) */
    boolean tryOpen(InetAddress address) {
        synchronized (this) {
            if (withinLimits(address)) {
                count(address);
                return true;
            }
        }
        // Outside the lock: the broker list may come from ZooKeeper's cache and a host name may need resolving.
        boolean broker = isBroker(address);
        synchronized (this) {
            if (broker || withinLimits(address)) {
                count(address);
                return true;
            }
            refused++;
            return false;
        }
    }

    /** Whether {@code address} is one of the cluster's brokers (ask only when a limit bites: it may cost a lookup). */
    boolean isBroker(InetAddress address) {
        return isBroker.test(address);
    }

    private boolean withinLimits(InetAddress address) {
        return total < limits.maxConnections() && perAddress.getOrDefault(address, 0) < limits.maxFor(address);
    }

    private void count(InetAddress address) {
        total++;
        perAddress.merge(address, 1, Integer::sum);
    }

    synchronized void closed(InetAddress address) {
        total--;
        perAddress.computeIfPresent(address, (a, n) -> n == 1 ? null : n - 1);
    }

    /** Connections refused so far. */
    synchronized long refused() {
        return refused;
    }

    synchronized int open() {
        return total;
    }
}

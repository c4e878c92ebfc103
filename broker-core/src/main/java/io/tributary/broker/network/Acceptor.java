package io.tributary.broker.network;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts connections on the listener and deals them round-robin to the processors. As in Kafka, a new connection
 * over the broker-wide or the listener's creation rate ({@link ConnectionRates}) waits in the acceptor, which takes
 * nothing else meanwhile; one over its address's rate is held unanswered and closed when its throttle ends; one beyond
 * the {@link ConnectionQuotas} is closed at once. Connections from a broker's address are never delayed or refused.
 */
final class Acceptor implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(Acceptor.class);
    private static final long REFUSAL_WARNING_INTERVAL_MS = 10_000;
    private static final long POLL_MS = 500;

    private final ServerSocketChannel serverSocket;
    private final Selector selector;
    private final SelectionKey acceptKey;
    private final ListenerName listener;
    private final List<Processor> processors;
    private final ConnectionQuotas quotas;
    private final ConnectionRates rates;
    private final int sendBufferBytes;
    private final int receiveBufferBytes;
    private final Time time;
    /** Connections over their address's rate, by the time they are closed. */
    private final PriorityQueue<Held> throttled = new PriorityQueue<>(Comparator.comparingLong(Held::untilMs));
    /** A connection over the broker-wide or listener rate, taken when its wait ends; null if none waits. */
    private Held waiting;
    private int next;
    private long lastRefusalWarningMs;
    private long lastThrottleWarningMs;
    private long ipThrottled;

    /** A connection the acceptor holds until {@code untilMs}. */
    private record Held(SocketChannel socket, InetAddress address, long untilMs) {
    }

    /** Binds immediately, so the bound port (for port 0) is known before {@link #run()} starts. */
    Acceptor(InetSocketAddress address, ListenerName listener, List<Processor> processors, ConnectionQuotas quotas,
             ConnectionRates rates, int sendBufferBytes, int receiveBufferBytes, Time time) throws IOException {
        this.serverSocket = ServerSocketChannel.open();
        this.serverSocket.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        this.serverSocket.bind(address, 512);
        this.serverSocket.configureBlocking(false);
        this.selector = Selector.open();
        this.acceptKey = serverSocket.register(selector, SelectionKey.OP_ACCEPT);
        this.listener = listener;
        this.processors = processors;
        this.quotas = quotas;
        this.rates = rates;
        this.sendBufferBytes = sendBufferBytes;
        this.receiveBufferBytes = receiveBufferBytes;
        this.time = time;
    }

    InetSocketAddress boundAddress() throws IOException {
        return (InetSocketAddress) serverSocket.getLocalAddress();
    }

    @Override
    public void run() {
        try {
            while (serverSocket.isOpen()) {
                try {
                    long now = time.milliseconds();
                    closeThrottledUntil(now);
                    if (waiting != null && waiting.untilMs() <= now) {
                        Held waited = waiting;
                        waiting = null;
                        acceptKey.interestOps(SelectionKey.OP_ACCEPT);
                        try {
                            admit(waited.socket(), waited.address(), now);
                        } catch (RuntimeException e) {
                            closeAfterFailure(waited.socket(), e);
                        }
                    }
                    selector.select(pollMs(now));
                    if (!selector.selectedKeys().isEmpty()) {
                        selector.selectedKeys().clear();
                        acceptPending();
                    }
                } catch (ClosedSelectorException e) {
                    throw e;
                } catch (Throwable e) {
                    // Whatever went wrong costs at most one connection, never the listener (unless it is closing).
                    if (serverSocket.isOpen()) {
                        log.error("accepting connections on listener {} failed", listener.value(), e);
                    }
                }
            }
        } catch (ClosedSelectorException e) {
            // close() was called: stop accepting
        } finally {
            if (!serverSocket.isOpen()) {
                closeHeld();
            }
        }
    }

    /** Until the next held connection is due, at most {@link #POLL_MS}. */
    private long pollMs(long now) {
        long until = now + POLL_MS;
        if (waiting != null) {
            until = Math.min(until, waiting.untilMs());
        }
        if (!throttled.isEmpty()) {
            until = Math.min(until, throttled.peek().untilMs());
        }
        return Math.max(1, until - now);
    }

    /** Takes the connections waiting in the backlog, until none is left or one must wait for the rates. */
    private void acceptPending() throws IOException {
        while (waiting == null) {
            SocketChannel socket = serverSocket.accept();
            if (socket == null) {
                return;
            }
            try {
                InetAddress address = socket.socket().getInetAddress();
                long now = time.milliseconds();
                long delayMs = rates.recordAndGetAcceptDelayMs(listener, () -> quotas.isBroker(address), now);
                if (delayMs > 0) {
                    waiting = new Held(socket, address, now + delayMs);
                    acceptKey.interestOps(0);
                    return;
                }
                admit(socket, address, now);
            } catch (RuntimeException e) {
                closeAfterFailure(socket, e);
            }
        }
    }

    /** Whatever failed before the connection was counted or handed over costs it alone. */
    private void closeAfterFailure(SocketChannel socket, RuntimeException e) {
        log.warn("could not take a new connection on listener {}; closing it", listener.value(), e);
        closeQuietly(socket);
    }

    /** Holds, refuses or hands over a connection the broker-wide and listener rates let through. */
    private void admit(SocketChannel socket, InetAddress address, long now) {
        long throttleMs = rates.recordAndGetIpThrottleMs(listener, address, () -> quotas.isBroker(address), now);
        if (throttleMs > 0) {
            throttled.add(new Held(socket, address, now + throttleMs));
            ipThrottled++;
            if (now - lastThrottleWarningMs >= REFUSAL_WARNING_INTERVAL_MS) {
                lastThrottleWarningMs = now;
                log.warn("throttled a connection from {} on listener {} for {} ms: over its connection_creation_rate "
                        + "({} throttled since start)", address.getHostAddress(), listener.value(), throttleMs, ipThrottled);
            }
            return;
        }
        if (!quotas.tryOpen(address)) {
            refuse(socket, address);
            return;
        }
        try {
            configure(socket);
            if (!handOver(socket, address)) {
                log.warn("no network thread is running to take a connection from {}; closing it", address.getHostAddress());
                closeCounted(socket, address);
            }
        } catch (IOException | RuntimeException e) {
            log.warn("could not hand over a connection from {}; closing it", address.getHostAddress(), e);
            closeCounted(socket, address);
        }
    }

    /** Gives the socket to the next processor whose thread is running (one that died is skipped until replaced). */
    private boolean handOver(SocketChannel socket, InetAddress client) {
        for (int tries = 0; tries < processors.size(); tries++) {
            Processor processor = processors.get(next);
            next = (next + 1) % processors.size();
            if (processor.accept(socket, client)) {
                return true;
            }
        }
        return false;
    }

    private void refuse(SocketChannel socket, InetAddress address) {
        closeQuietly(socket);
        long now = time.milliseconds();
        if (now - lastRefusalWarningMs >= REFUSAL_WARNING_INTERVAL_MS) {
            lastRefusalWarningMs = now;
            log.warn("refused a connection from {}: max.connections or max.connections.per.ip reached "
                    + "({} open, {} refused since start)", address.getHostAddress(), quotas.open(), quotas.refused());
        }
    }

    private void closeThrottledUntil(long now) {
        while (!throttled.isEmpty() && throttled.peek().untilMs() <= now) {
            closeQuietly(throttled.poll().socket());
        }
    }

    /** On close: the held connections were never handed over, nor counted. */
    private void closeHeld() {
        throttled.forEach(held -> closeQuietly(held.socket()));
        throttled.clear();
        if (waiting != null) {
            closeQuietly(waiting.socket());
            waiting = null;
        }
    }

    /** Closes a connection counted in the quotas that never reached a processor. */
    private void closeCounted(SocketChannel socket, InetAddress address) {
        closeQuietly(socket);
        quotas.closed(address);
    }

    private static void closeQuietly(SocketChannel socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // the descriptor is gone either way
        }
    }

    private void configure(SocketChannel socket) throws IOException {
        socket.configureBlocking(false);
        socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
        socket.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        if (sendBufferBytes > 0) {
            socket.setOption(StandardSocketOptions.SO_SNDBUF, sendBufferBytes);
        }
        if (receiveBufferBytes > 0) {
            socket.setOption(StandardSocketOptions.SO_RCVBUF, receiveBufferBytes);
        }
    }

    /** Stops accepting (the held connections are closed); established connections stay with their processors. */
    void close() {
        try {
            serverSocket.close();
        } catch (IOException e) {
            log.warn("could not close the listening socket", e);
        }
        try {
            selector.close(); // frees the port now, even if run() never started; a running select() ends
        } catch (IOException e) {
            log.warn("could not close the acceptor's selector", e);
        }
    }
}

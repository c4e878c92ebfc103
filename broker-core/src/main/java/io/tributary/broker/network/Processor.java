package io.tributary.broker.network;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.network.ByteBufferSend;
import org.apache.kafka.common.network.InvalidReceiveException;
import org.apache.kafka.common.network.Send;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A network thread: owns one selector and the connections the acceptor gave it; reads frames,
 * parses them, queues them for the handlers and writes the responses back. See the package
 * comment for the ordering rule.
 */
public final class Processor implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(Processor.class);
    private static final long POLL_MS = 300;
    private static final int SIZE_PREFIX_BYTES = 4;

    private final int id;
    private final RequestChannel requestChannel;
    private final RequestParser parser = new RequestParser();
    private final ReceiveBuffers receiveBuffers = new ReceiveBuffers();
    private final MemoryPool memoryPool;
    private final int maxRequestBytes;
    private final long maxIdleMs;
    private final long partialRequestTimeoutMs;
    private final ConnectionQuotas quotas;
    private final ChannelSecurity security;
    private final Time time;
    private final Selector selector;
    private final Queue<NewConnection> newConnections = new ConcurrentLinkedQueue<>();
    private final Queue<Response> responses = new ConcurrentLinkedQueue<>();
    private final Map<String, Connection> connections = new HashMap<>();
    /** Frame buffers the request handlers are done with, for {@link #receiveBuffers} to reuse. */
    private final Queue<ByteBuffer> returnedBuffers = new ConcurrentLinkedQueue<>();
    private final Set<Connection> mutedForMemory = new HashSet<>();
    /** Connections muted after a response that carried a throttle time, until their throttle ends. */
    private final Set<Connection> throttled = new HashSet<>();
    /** Connections with decrypted bytes the selector cannot report: read on the next poll without waiting. */
    private final Set<Connection> withBufferedInput = new HashSet<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean reading = true;
    private volatile boolean running = true;
    private volatile boolean memoryFreed;
    /** Set when the thread ends: sockets handed over from then on would never be registered. */
    private volatile boolean finished;
    private boolean readingPaused;
    private long nextConnectionIndex;
    private long lastStallCheckMs;

    /** A socket the acceptor handed over, and the client address it is counted under in the quotas. */
    private record NewConnection(SocketChannel socket, InetAddress client) {
    }

    Processor(int id, RequestChannel requestChannel, MemoryPool memoryPool, ConnectionQuotas quotas,
              SocketServerConfig config, Time time) throws IOException {
        this.id = id;
        this.requestChannel = requestChannel;
        this.memoryPool = memoryPool;
        this.quotas = quotas;
        this.maxRequestBytes = config.maxRequestBytes();
        this.maxIdleMs = config.maxIdleMs();
        this.partialRequestTimeoutMs = config.partialRequestTimeoutMs();
        this.security = config.security();
        this.time = time;
        this.selector = Selector.open();
    }

    int id() {
        return id;
    }

    /**
     * Called by the acceptor; the socket is registered on this processor's own thread.
     *
     * @return false if this processor's thread has ended (the socket is then still the caller's)
     */
    boolean accept(SocketChannel socket, InetAddress client) {
        NewConnection pending = new NewConnection(socket, client);
        newConnections.add(pending);
        if (finished && newConnections.remove(pending)) {
            return false;
        }
        selector.wakeup();
        return true;
    }

    /** Called (on any thread) when pool memory was freed: connections muted for memory try again. */
    void memoryFreed() {
        memoryFreed = true;
        selector.wakeup();
    }

    void enqueueResponse(Response response) {
        responses.add(response);
        selector.wakeup();
    }

    /** For shutdown: read no further requests, but keep writing responses. */
    void stopReading() {
        reading = false;
        selector.wakeup();
    }

    /** Stops the thread after writing what is queued, waiting at most {@code timeoutMs}. */
    void close(long timeoutMs) throws InterruptedException {
        running = false;
        selector.wakeup();
        stopped.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void run() {
        try {
            while (running) {
                pollOnce();
            }
            finishPendingWrites();
        } catch (ClosedSelectorException e) {
            log.debug("processor {} selector closed", id);
        } finally {
            finished = true;
            // Closing gives back the memory of the frames being read; requests with the handlers give back their own.
            for (Connection connection : connections.values()) {
                try {
                    forget(connection);
                } catch (Throwable e) {
                    log.warn("processor {} could not close connection {}", id, connection.id(), e);
                }
            }
            connections.clear();
            NewConnection pending;
            while ((pending = newConnections.poll()) != null) {
                closeNew(pending);
            }
            try {
                selector.close();
            } catch (IOException e) {
                log.warn("processor {} could not close its selector", id, e);
            }
            stopped.countDown();
        }
    }

    private void pollOnce() {
        try {
            long turnStart = time.nanoseconds();
            registerNewSockets();
            reuseReturnedBuffers();
            maybePauseReading();
            processResponses();
            unmuteIfMemoryFreed();
            long pollMs = unmuteThrottledAndGetPollMs(); // may find buffered input on a connection it unmutes
            long selectStart = time.nanoseconds();
            selector.select(withBufferedInput.isEmpty() ? pollMs : 1);
            long selectEnd = time.nanoseconds();
            handleReadyKeys();
            readBufferedInput();
            closeStalledConnections();
            requestChannel.networkIdle().record(selectEnd - selectStart, time.nanoseconds() - turnStart);
        } catch (ClosedSelectorException e) {
            throw e;
        } catch (Throwable e) {
            // Whatever one connection did must never take the thread (and its other connections) down.
            log.error("processor {} poll failed", id, e);
        }
    }

    private void finishPendingWrites() throws ClosedSelectorException {
        long deadline = time.milliseconds() + 5_000;
        while (time.milliseconds() < deadline && (!responses.isEmpty() || connections.values().stream().anyMatch(Connection::sending))) {
            pollOnce();
        }
    }

    private void registerNewSockets() {
        NewConnection pending;
        while ((pending = newConnections.poll()) != null) {
            if (!reading) {
                closeNew(pending);
                continue;
            }
            try {
                register(pending.socket(), pending.client());
            } catch (Throwable e) {
                log.warn("processor {} could not register a new connection; closing it", id, e);
                closeNew(pending);
            }
        }
    }

    private void reuseReturnedBuffers() {
        ByteBuffer buffer;
        while ((buffer = returnedBuffers.poll()) != null) {
            receiveBuffers.release(buffer);
        }
    }

    private void closeNew(NewConnection pending) {
        try {
            pending.socket().close();
        } catch (IOException e) {
            // the descriptor is gone either way
        }
        quotas.closed(pending.client());
    }

    private void register(SocketChannel socket, InetAddress client) throws IOException {
        String connectionId = socket.getLocalAddress() + "-" + socket.getRemoteAddress() + "-" + id + "-" + nextConnectionIndex++;
        InetSocketAddress peer = (InetSocketAddress) socket.getRemoteAddress();
        Transport transport = security.newSslEngine(peer.getHostString(), peer.getPort())
                .<Transport>map(engine -> newTlsTransport(socket, engine))
                .orElseGet(() -> new SocketChannelTransfer(socket));
        SelectionKey key = socket.register(selector, SelectionKey.OP_READ);
        Connection connection = new Connection(connectionId, client, key, transport, security.newAuthenticator(client),
                maxRequestBytes, receiveBuffers, memoryPool, time);
        if (!connection.handshaking()) {
            connection.authenticator().transportReady(transport.sslSession());
            connection.authenticationProgressed();
        }
        key.attach(connection);
        connections.put(connectionId, connection);
    }

    private static Transport newTlsTransport(SocketChannel socket, SSLEngine engine) {
        try {
            return new TlsTransport(socket, engine);
        } catch (SSLException e) {
            throw new IllegalStateException("could not start a TLS handshake", e);
        }
    }

    private void maybePauseReading() {
        if (!reading && !readingPaused) {
            readingPaused = true;
            for (SelectionKey key : selector.keys()) {
                Connection connection = (Connection) key.attachment();
                if (key.isValid() && !connection.sending()) {
                    key.interestOps(0);
                }
            }
        }
    }

    private void processResponses() {
        Response response;
        while ((response = responses.poll()) != null) {
            response.request().releaseFrame(); // normally done by the handler already
            Connection connection = connections.get(response.request().connectionId());
            if (connection == null) {
                continue; // the client went away while its request was being handled
            }
            try {
                if (connection.authenticator().authenticated()) { // a SASL login's time goes to the first request after it
                    connection.answering(response.request());
                }
                if (response.throttleTimeMs() > 0) {
                    connection.throttleUntil(time.milliseconds() + response.throttleTimeMs());
                }
                if (response.closesConnection()) {
                    close(connection);
                } else if (response.send().isPresent()) {
                    send(connection, response.send().get());
                } else {
                    resumeReading(connection);
                }
            } catch (Throwable e) {
                log.error("closing connection {}: answering {} failed", connection.id(), response.request(), e);
                close(connection);
            }
        }
    }

    private void handleReadyKeys() {
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
            SelectionKey key = keys.next();
            keys.remove();
            Connection connection = (Connection) key.attachment();
            try {
                if (key.isValid() && connection.handshaking()) {
                    connection.handshake(time.milliseconds());
                    if (!connection.handshaking()) {
                        noteBufferedInput(connection);
                    }
                    continue;
                }
                if (key.isValid() && key.isReadable()) {
                    read(connection);
                }
                // While stopping, a written connection keeps OP_WRITE (reading does not resume): nothing to send then.
                if (key.isValid() && key.isWritable() && connection.sending() && connection.write(time.milliseconds())) {
                    resumeReading(connection);
                }
            } catch (Throwable e) {
                closeAfterFailure(connection, e);
            }
        }
    }

    /** What reading or writing {@code connection} threw costs it the connection, logged as its kind deserves. */
    private void closeAfterFailure(Connection connection, Throwable e) {
        if (e instanceof InvalidReceiveException || e instanceof InvalidRequestException || e instanceof AuthenticationException) {
            log.warn("closing connection {}: {}", connection.id(), e.getMessage());
        } else if (e instanceof SSLException) {
            log.warn("closing connection {} from {} on listener {}: TLS failed: {}", connection.id(),
                    connection.client().getHostAddress(), security.listener().value(), e.getMessage());
        } else if (e instanceof IOException && !(e instanceof EOFException)) {
            log.debug("closing connection {} after I/O error: {}", connection.id(), e.getMessage());
        } else if (!(e instanceof EOFException)) {
            log.error("closing connection {}: reading or writing it failed", connection.id(), e);
        }
        close(connection);
    }

    /** Reads what TLS decrypted already for connections whose next request came with the previous one. */
    private void readBufferedInput() {
        if (withBufferedInput.isEmpty()) {
            return;
        }
        List<Connection> ready = new ArrayList<>(withBufferedInput);
        withBufferedInput.clear();
        for (Connection connection : ready) {
            if (connections.get(connection.id()) != connection || !connection.hasBufferedInput()) {
                continue;
            }
            try {
                read(connection);
            } catch (Throwable e) {
                closeAfterFailure(connection, e);
            }
        }
    }

    /**
     * After a release that followed a refused reservation, every connection muted for memory tries again (those
     * that still do not fit are muted again, until the next release): no spinning while the pool stays full.
     */
    private void unmuteIfMemoryFreed() {
        if (memoryFreed && reading) {
            memoryFreed = false;
            mutedForMemory.forEach(connection -> {
                connection.unmuteForMemory();
                noteBufferedInput(connection);
            });
            mutedForMemory.clear();
        }
    }

    private void read(Connection connection) throws IOException {
        long now = time.milliseconds();
        FrameReader.Frame frame = connection.read(now);
        if (connection.mutedForMemory()) {
            mutedForMemory.add(connection);
        }
        if (frame == null) {
            return;
        }
        Authenticator authenticator = connection.authenticator();
        RequestParser.Parsed parsed = null;
        Authenticator.Step step = Authenticator.Step.FORWARD;
        try { // a frame that fails here is no request's: its memory goes back now
            if (authenticator.expectsBareToken()) {
                step = authenticator.handleBareToken(frame.payload(), now);
            } else {
                parsed = parser.parse(frame.payload());
                if (parsed instanceof RequestParser.Parsed.Ok ok) {
                    step = authenticator.handle(ok.header(), ok.body(), now);
                }
            }
        } catch (RuntimeException e) {
            frame.release(receiveBuffers::release);
            throw e;
        }
        if (!step.forward()) {
            frame.release(receiveBuffers::release);
            connection.authenticationProgressed();
            if (step.reply() == null) {
                close(connection);
                return;
            }
            connection.awaitResponse();
            if (step.thenClose()) {
                connection.closeAfterSending();
            }
            send(connection, step.reply());
            return;
        }
        connection.awaitResponse();
        if (parsed instanceof RequestParser.Parsed.Unknown unknown) {
            // Every such request is logged: it names an API or version some client needs and we lack.
            log.warn("connection {} from {} (client id {}) sent {} v{}, which this broker does not serve: answered UNSUPPORTED_VERSION",
                    connection.id(), connection.client(), unknown.clientId(),
                    ApiKeys.hasId(unknown.apiKey()) ? ApiKeys.forId(unknown.apiKey()) : "api key " + unknown.apiKey(),
                    unknown.apiVersion());
            frame.release(receiveBuffers::release);
            send(connection, bareErrorResponse(unknown.correlationId()));
            return;
        }
        RequestParser.Parsed.Ok ok = (RequestParser.Parsed.Ok) parsed;
        Session session = new Session(connection.authenticator().principal(), connection.client(), security.listener(),
                security.protocol());
        Request request = new Request(id, connection.id(), ok.header(), ok.body(), SIZE_PREFIX_BYTES + frame.payload().limit(),
                () -> frame.release(returnedBuffers::add), session);
        try {
            requestChannel.sendRequest(request);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            request.releaseFrame(); // no handler will
            close(connection);
        }
    }

    /** Writes {@code send} now as far as the socket takes it; reading resumes once all of it is out. */
    private void send(Connection connection, Send send) {
        try {
            if (connection.startSending(send, time.milliseconds())) {
                resumeReading(connection);
            }
        } catch (IOException e) {
            log.debug("closing connection {} after I/O error: {}", connection.id(), e.getMessage());
            close(connection);
        }
    }

    /** Response header v0 and an UNSUPPORTED_VERSION error code: all we can say to an API we cannot parse. */
    private static ByteBufferSend bareErrorResponse(int correlationId) {
        ByteBuffer buffer = ByteBuffer.allocate(6);
        buffer.putInt(correlationId);
        buffer.putShort(Errors.UNSUPPORTED_VERSION.code());
        buffer.flip();
        return ByteBufferSend.sizePrefixed(buffer);
    }

    private void resumeReading(Connection connection) {
        connection.chargeNetworkThreadTime();
        long now = time.milliseconds();
        if (connection.closesAfterSending()) {
            close(connection);
        } else if (reading && connection.throttledUntilMs() > now) {
            connection.stopSelecting(); // KIP-219: the response went out at once, the next request waits
            throttled.add(connection);
        } else if (reading) {
            connection.resumeReading(now);
            noteBufferedInput(connection);
        } else {
            connection.stopSelecting(); // shutting down: no more requests, and nothing left to write
        }
    }

    /** Resumes reading on connections whose throttle has ended; @return how long the next select may wait */
    private long unmuteThrottledAndGetPollMs() {
        if (throttled.isEmpty()) {
            return POLL_MS;
        }
        long now = time.milliseconds();
        long nextEnd = now + POLL_MS;
        Iterator<Connection> waiting = throttled.iterator();
        while (waiting.hasNext()) {
            Connection connection = waiting.next();
            long until = connection.throttledUntilMs();
            if (until <= now) {
                waiting.remove();
                resumeReading(connection);
            } else {
                nextEnd = Math.min(nextEnd, until);
            }
        }
        return Math.max(1, nextEnd - now);
    }

    private void noteBufferedInput(Connection connection) {
        if (connection.hasBufferedInput()) {
            withBufferedInput.add(connection);
        }
    }

    /**
     * Closes connections idle for connections.max.idle.ms, and those sending one request for too long. Looks at
     * most once per poll interval: with thousands of connections a scan after every event would cost more than
     * the events.
     */
    private void closeStalledConnections() {
        long now = time.milliseconds();
        if (now - lastStallCheckMs < POLL_MS) {
            return;
        }
        lastStallCheckMs = now;
        connections.values().removeIf(connection -> {
            if (connection.idleSince(now - maxIdleMs)) {
                log.debug("closing idle connection {}", connection.id());
                forget(connection);
                return true;
            }
            if (connection.sendingRequestSince(now - partialRequestTimeoutMs)) {
                log.info("closing connection {}: it has been sending one request for more than {} ms",
                        connection.id(), partialRequestTimeoutMs);
                forget(connection);
                return true;
            }
            return false;
        });
    }

    private void close(Connection connection) {
        connections.remove(connection.id());
        forget(connection);
    }

    /** Closes a connection already out of {@link #connections}. */
    private void forget(Connection connection) {
        connection.chargeNetworkThreadTime();
        if (connection.close()) {
            quotas.closed(connection.client());
        }
        mutedForMemory.remove(connection);
        throttled.remove(connection);
        withBufferedInput.remove(connection);
    }
}

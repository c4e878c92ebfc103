package io.tributary.broker.network;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.apache.kafka.common.utils.Time;

/**
 * The acceptor and the processors of one listener (secured as its {@link ChannelSecurity} says). Starting binds the port (port 0 picks a free
 * one, see {@link #boundAddress()}); shutting down happens in two steps so that in-flight requests
 * are answered: {@link #stopAccepting()}, then {@link #close()}.
 */
public final class SocketServer implements AutoCloseable {
    private final RequestChannel requestChannel;
    /** Indexed by processor id minus {@link #firstProcessorId}; a processor whose thread died is replaced in place. */
    private final List<Processor> processors = new CopyOnWriteArrayList<>();
    private final SocketServerConfig config;
    private final Time time;
    private final MemoryPool memoryPool;
    private final ConnectionQuotas quotas;
    private final SupervisedThreads threads = new SupervisedThreads();
    private final Acceptor acceptor;
    private final int firstProcessorId;

    /**
     * @param isBroker whether a client address is one of the cluster's brokers (exempt from the connection limits)
     * @param rates    the connection creation rates, shared by every listener of the broker
     */
    public SocketServer(SocketServerConfig config, RequestChannel requestChannel, Predicate<InetAddress> isBroker,
                        ConnectionRates rates, Time time) throws IOException {
        this.requestChannel = requestChannel;
        this.quotas = new ConnectionQuotas(config.connectionLimits(), isBroker);
        this.config = config;
        this.time = time;
        this.memoryPool = new MemoryPool(config.queuedMaxRequestBytes(), () -> processors.forEach(Processor::memoryFreed));
        this.firstProcessorId = requestChannel.reserveProcessorIds(config.networkThreads());
        for (int i = 0; i < config.networkThreads(); i++) {
            processors.add(newProcessor(firstProcessorId + i));
        }
        this.acceptor = new Acceptor(config.listenAddress(), config.security().listener(), processors, quotas, rates,
                config.sendBufferBytes(), config.receiveBufferBytes(), time);
    }

    private Processor newProcessor(int id) throws IOException {
        Processor processor = new Processor(id, requestChannel, memoryPool, quotas, config, time);
        requestChannel.addProcessor(processor);
        return processor;
    }

    public void start() {
        for (Processor processor : processors) {
            int id = processor.id();
            threads.start("tributary-network-" + listenerName() + "-" + (id - firstProcessorId), processor, () -> replaceProcessor(id));
        }
        threads.start("tributary-acceptor-" + listenerName(), acceptor, () -> acceptor);
    }

    private String listenerName() {
        return config.security().listener().value();
    }

    /** A fresh processor for a dead one: its connections were closed with it, new ones go to the replacement. */
    private Processor replaceProcessor(int id) {
        try {
            Processor replacement = newProcessor(id);
            processors.set(id - firstProcessorId, replacement);
            return replacement;
        } catch (IOException e) {
            throw new UncheckedIOException("could not open a selector for network thread " + id, e);
        }
    }

    /** Bytes of request frames held in the {@code queued.max.request.bytes} pool now. */
    long requestMemoryInUse() {
        return memoryPool.used();
    }

    public InetSocketAddress boundAddress() {
        try {
            return acceptor.boundAddress();
        } catch (IOException e) {
            throw new IllegalStateException("listener is closed", e);
        }
    }

    /** Closes the listening socket and stops reading new requests; pending responses still go out. */
    public void stopAccepting() {
        threads.stop();
        acceptor.close();
        processors.forEach(Processor::stopReading);
    }

    /** Waits (bounded) for in-flight requests to be answered, then closes every connection. */
    @Override
    public void close() throws InterruptedException {
        stopAccepting();
        requestChannel.awaitNoneInFlight(10_000);
        for (Processor processor : processors) {
            processor.close(10_000);
        }
        threads.join(10_000);
    }
}

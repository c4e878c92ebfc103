package io.tributary.broker.network;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Time;

/**
 * The acceptor and the processors of one listener. Starting binds the port (port 0 picks a free
 * one, see {@link #boundAddress()}); shutting down happens in two steps so that in-flight requests
 * are answered: {@link #stopAccepting()}, then {@link #close()}.
 */
public final class SocketServer implements AutoCloseable {
    private final RequestChannel requestChannel;
    private final List<Processor> processors = new ArrayList<>();
    private final MemoryPool memoryPool;
    private final List<Thread> threads = new ArrayList<>();
    private final Acceptor acceptor;

    public SocketServer(SocketServerConfig config, RequestChannel requestChannel, Time time) throws IOException {
        this.requestChannel = requestChannel;
        this.memoryPool = new MemoryPool(config.queuedMaxRequestBytes(), () -> processors.forEach(Processor::memoryFreed));
        for (int i = 0; i < config.networkThreads(); i++) {
            Processor processor = new Processor(i, requestChannel, memoryPool, config.maxRequestBytes(), config.maxIdleMs(), time);
            requestChannel.addProcessor(processor);
            processors.add(processor);
        }
        this.acceptor = new Acceptor(config.listenAddress(), processors, config.sendBufferBytes(), config.receiveBufferBytes());
    }

    public void start() {
        for (Processor processor : processors) {
            threads.add(startThread("tributary-network-" + processor.id(), processor));
        }
        threads.add(startThread("tributary-acceptor", acceptor));
    }

    private static Thread startThread(String name, Runnable runnable) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(false);
        thread.start();
        return thread;
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
        for (Thread thread : threads) {
            thread.join(10_000);
        }
    }
}

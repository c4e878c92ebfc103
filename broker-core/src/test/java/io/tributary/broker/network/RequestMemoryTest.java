package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import io.tributary.broker.api.RequestHandlerPool;
import io.tributary.testkit.wire.RawConnection;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataRequestData.MetadataRequestTopic;
import org.apache.kafka.common.network.ByteBufferSend;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the {@code queued.max.request.bytes} pool holds, against a real socket server and handler pool: half-sent
 * requests hold only what they sent, small requests are never muted by a full pool, requests waiting for a
 * response (as acks=all produces wait for the followers) do not hold the pool, and a network thread that dies
 * neither leaks nor gives back early the memory of its requests.
 */
@Timeout(120)
class RequestMemoryTest {
    private static final int POOL_BYTES = 256 * 1024;
    private static final int LARGE_REQUEST_TOPICS = 1000; // about 100 KB of topic names

    /** Metadata requests naming topics "park-*" wait (as in a purgatory) until one naming "release-*" arrives. */
    private final Queue<Runnable> parked = new ConcurrentLinkedQueue<>();
    private final FailingTime time = new FailingTime();
    private volatile CountDownLatch handlerBlock = new CountDownLatch(0);
    private final CountDownLatch blockedRequestArrived = new CountDownLatch(1);
    private RequestChannel channel;
    private SocketServer server;
    private RequestHandlerPool handlers;
    private final List<RawConnection> opened = new ArrayList<>();

    /** The system clock, except on a thread the test wants dead: that thread's next look at it throws. */
    private static final class FailingTime implements Time {
        private volatile Thread victim;

        @Override
        public long milliseconds() {
            if (Thread.currentThread() == victim) {
                throw new ClosedSelectorException();
            }
            return SYSTEM.milliseconds();
        }

        @Override
        public long nanoseconds() {
            return SYSTEM.nanoseconds();
        }

        @Override
        public void sleep(long ms) {
            SYSTEM.sleep(ms);
        }

        @Override
        public void waitObject(Object obj, java.util.function.Supplier<Boolean> condition, long deadlineMs) throws InterruptedException {
            SYSTEM.waitObject(obj, condition, deadlineMs);
        }
    }

    private void start() throws IOException {
        start(ChannelSecurity.plaintext(ListenerName.normalised("PLAINTEXT")));
    }

    private void start(ChannelSecurity security) throws IOException {
        channel = new RequestChannel(10);
        server = new SocketServer(new SocketServerConfig(new InetSocketAddress("127.0.0.1", 0), 1, 100 << 20,
                600_000, 60_000, 10, POOL_BYTES, ConnectionLimits.NONE, -1, -1, security), channel, address -> false,
                ConnectionRates.UNLIMITED, time);
        handlers = new RequestHandlerPool(2, channel, this::handle);
        handlers.start();
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        for (RawConnection connection : opened) {
            connection.close();
        }
        handlerBlock.countDown();
        parked.forEach(Runnable::run);
        if (server != null) {
            server.close();
            handlers.close();
        }
    }

    private CompletableFuture<Response> handle(Request request) {
        Response answer = Response.of(request, ByteBufferSend.sizePrefixed(ByteBuffer.allocate(4).putInt(0, request.header().correlationId())));
        if (request.apiKey() != ApiKeys.METADATA) {
            return CompletableFuture.completedFuture(answer);
        }
        String firstTopic = ((MetadataRequest) request.body()).data().topics().get(0).name();
        if (firstTopic.startsWith("block-")) {
            blockedRequestArrived.countDown();
            try {
                handlerBlock.await(60, TimeUnit.SECONDS); // a handler still reading the request's bytes
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (firstTopic.startsWith("park-")) {
            CompletableFuture<Response> later = new CompletableFuture<>();
            parked.add(() -> later.complete(answer));
            return later;
        }
        if (firstTopic.startsWith("release-")) {
            Runnable waiting;
            while ((waiting = parked.poll()) != null) {
                waiting.run();
            }
        }
        return CompletableFuture.completedFuture(answer);
    }

    /** A Metadata request of about 100 KB: larger than a small frame, and almost half the pool. */
    private static MetadataRequestData largeRequest(String prefix) {
        MetadataRequestData data = new MetadataRequestData();
        for (int i = 0; i < LARGE_REQUEST_TOPICS; i++) {
            data.topics().add(new MetadataRequestTopic().setName(prefix + "-" + "x".repeat(90) + i));
        }
        return data;
    }

    /** A connection the test closes at its end, if the test has not. */
    private RawConnection connect() throws IOException {
        RawConnection connection = new RawConnection("127.0.0.1", server.boundAddress().getPort());
        opened.add(connection);
        return connection;
    }

    private static void assertAnswered(RawConnection connection, RequestHeader header) throws IOException {
        assertThat(connection.readFrame().getInt()).isEqualTo(header.correlationId()); // fails after 10 s without one
    }

    @Test
    void sizePrefixesAloneHoldNoMemoryAndTheBytesThatArriveHoldLittle() throws Exception {
        start();
        List<RawConnection> attackers = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            RawConnection attacker = connect();
            attackers.add(attacker);
            ByteBuffer announcement = ByteBuffer.allocate(i % 2 == 0 ? 4 : 5).putInt(0, 10_000_000);
            attacker.write(announcement.array()); // half of them send one byte of the payload too
        }
        RawConnection good = connect();
        assertAnswered(good, good.send(ApiKeys.METADATA, (short) 12, largeRequest("good")));
        await().atMost(Duration.ofSeconds(10)).until(() -> server.requestMemoryInUse() == 20L * FrameReader.MIN_BUFFER_BYTES);
        for (RawConnection attacker : attackers) {
            attacker.close();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> server.requestMemoryInUse() == 0);
    }

    @Test
    void smallRequestsAreServedWhileHalfSentLargeOnesFillThePool() throws Exception {
        start();
        for (int i = 0; i < 4; i++) {
            connect().write(ByteBuffer.allocate(4 + 200_000).putInt(0, 1_000_000).array());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> server.requestMemoryInUse() >= POOL_BYTES);
        RawConnection follower = connect();
        assertAnswered(follower, follower.send(ApiKeys.API_VERSIONS, (short) 3, new ApiVersionsRequestData()
                .setClientSoftwareName("test").setClientSoftwareVersion("1")));
        assertAnswered(follower, follower.send(ApiKeys.METADATA, (short) 12, new MetadataRequestData()
                .setTopics(List.of(new MetadataRequestTopic().setName("small")))));
    }

    /**
     * The stall of issue 18's review: large requests whose responses wait (acks=all produces waiting for the
     * followers) must not keep the request that would complete them (the followers' fetch) from being read.
     */
    @Test
    void requestsWaitingForTheirResponseDoNotHoldThePool() throws Exception {
        start();
        List<RawConnection> waiting = new ArrayList<>();
        List<RequestHeader> headers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            RawConnection producer = connect();
            waiting.add(producer);
            headers.add(producer.send(ApiKeys.METADATA, (short) 12, largeRequest("park-" + i)));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> parked.size() == 4);
        RawConnection follower = connect();
        assertAnswered(follower, follower.send(ApiKeys.METADATA, (short) 12, largeRequest("release")));
        for (int i = 0; i < 4; i++) {
            assertAnswered(waiting.get(i), headers.get(i));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> server.requestMemoryInUse() == 0);
    }

    /** A listener whose authenticator fails on the first request (as a bug in a SASL mechanism would). */
    private static ChannelSecurity failingAuthentication() {
        ChannelSecurity plaintext = ChannelSecurity.plaintext(ListenerName.normalised("SASL_PLAINTEXT"));
        return new ChannelSecurity() {
            @Override
            public ListenerName listener() {
                return plaintext.listener();
            }

            @Override
            public SecurityProtocol protocol() {
                return SecurityProtocol.SASL_PLAINTEXT;
            }

            @Override
            public Optional<SSLEngine> newSslEngine(String peerHost, int peerPort) {
                return Optional.empty();
            }

            @Override
            public Authenticator newAuthenticator(InetAddress client) {
                return new Authenticator() {
                    @Override
                    public boolean authenticated() {
                        return false;
                    }

                    @Override
                    public KafkaPrincipal principal() {
                        return KafkaPrincipal.ANONYMOUS;
                    }

                    @Override
                    public Step handle(RequestHeader header, AbstractRequest request, long nowMs) {
                        throw new IllegalStateException("the mechanism failed");
                    }
                };
            }
        };
    }

    @Test
    void aFrameTheAuthenticatorFailsOnGivesItsMemoryBack() throws Exception {
        start(failingAuthentication());
        RawConnection client = connect();
        client.send(ApiKeys.METADATA, (short) 12, largeRequest("unauthenticated"));
        assertThat(client.closedByBroker(Duration.ofSeconds(10))).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> server.requestMemoryInUse() == 0);
    }

    @Test
    void aDeadNetworkThreadsRequestsKeepTheirMemoryUntilHandledAndThenGiveItBack() throws Exception {
        start();
        handlerBlock = new CountDownLatch(1);
        RawConnection blocked = connect();
        RawConnection halfSent = connect();
        blocked.send(ApiKeys.METADATA, (short) 12, largeRequest("block"));
        assertThat(blockedRequestArrived.await(10, TimeUnit.SECONDS)).isTrue();
        long handlersHold = server.requestMemoryInUse();
        assertThat(handlersHold).isGreaterThan(100_000);
        halfSent.write(ByteBuffer.allocate(4 + 50_000).putInt(0, 1_000_000).array());
        await().atMost(Duration.ofSeconds(10)).until(() -> server.requestMemoryInUse() >= handlersHold + 50_000);

        Thread networkThread = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("tributary-network-PLAINTEXT-0")).findFirst().orElseThrow();
        time.victim = networkThread;
        networkThread.join(10_000);
        assertThat(networkThread.isAlive()).isFalse();
        assertThat(halfSent.closedByBroker(Duration.ofSeconds(10))).isTrue();
        // The replacement thread serves new connections (those accepted before it started are closed).
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions().untilAsserted(() -> {
            RawConnection next = connect();
            assertAnswered(next, next.send(ApiKeys.API_VERSIONS, (short) 3, new ApiVersionsRequestData()
                    .setClientSoftwareName("test").setClientSoftwareVersion("1")));
        });
        assertThat(server.requestMemoryInUse()).as("memory of the request the handler still reads").isEqualTo(handlersHold);

        handlerBlock.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> server.requestMemoryInUse() == 0);
    }
}

package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.network.ConnectionLimits;
import io.tributary.broker.network.ConnectionRates;
import io.tributary.broker.network.Request;
import io.tributary.broker.network.RequestChannel;
import io.tributary.broker.network.Response;
import io.tributary.broker.network.ChannelSecurity;
import io.tributary.broker.network.SocketServer;
import io.tributary.broker.network.SocketServerConfig;
import io.tributary.testkit.wire.RawConnection;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.network.ByteBufferSend;
import org.apache.kafka.common.network.Send;
import org.apache.kafka.common.network.TransferableChannel;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A request whose handling or writing throws an Error (here an OutOfMemoryError) costs its own connection
 * only: the single handler thread and the single network thread keep serving the next client.
 */
@Timeout(60)
class FailingRequestsTest {
    private RequestChannel channel;
    private SocketServer socketServer;
    private RequestHandlerPool handlers;

    @BeforeEach
    void start() throws IOException {
        channel = new RequestChannel(10);
        socketServer = new SocketServer(new SocketServerConfig(new InetSocketAddress("127.0.0.1", 0), 1, 1 << 20,
                60_000, 30_000, 10, 1 << 24, ConnectionLimits.NONE, -1, -1,
                ChannelSecurity.plaintext(ListenerName.normalised("PLAINTEXT"))), channel, address -> false, ConnectionRates.UNLIMITED,
                Time.SYSTEM);
        handlers = new RequestHandlerPool(1, channel, FailingRequestsTest::handle);
        handlers.start();
        socketServer.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        socketServer.close();
        handlers.close();
    }

    /** Metadata throws in the handler, DescribeCluster while its response is written; ApiVersions works. */
    private static CompletableFuture<Response> handle(Request request) {
        return switch (request.apiKey()) {
            case METADATA -> throw new OutOfMemoryError("thrown by the test's handler");
            case DESCRIBE_CLUSTER -> CompletableFuture.completedFuture(Response.of(request, new ThrowingSend()));
            default -> CompletableFuture.completedFuture(Response.of(request, correlationIdOnly(request)));
        };
    }

    private static Send correlationIdOnly(Request request) {
        return ByteBufferSend.sizePrefixed(ByteBuffer.allocate(4).putInt(0, request.header().correlationId()));
    }

    private static final class ThrowingSend implements Send {
        @Override
        public boolean completed() {
            return false;
        }

        @Override
        public long writeTo(TransferableChannel channel) {
            throw new OutOfMemoryError("thrown by the test's response");
        }

        @Override
        public long size() {
            return 10;
        }
    }

    @Test
    void anErrorInAHandlerClosesOnlyItsConnection() throws Exception {
        try (RawConnection failing = connect()) {
            failing.send(ApiKeys.METADATA, (short) 12, new MetadataRequestData().setTopics(null));
            assertThat(failing.closedByBroker(Duration.ofSeconds(10))).isTrue();
        }
        assertTheNextClientIsServed();
    }

    @Test
    void anErrorWhileWritingAResponseClosesOnlyItsConnection() throws Exception {
        try (RawConnection failing = connect()) {
            failing.send(ApiKeys.DESCRIBE_CLUSTER, (short) 0, new DescribeClusterRequestData());
            assertThat(failing.closedByBroker(Duration.ofSeconds(10))).isTrue();
        }
        assertTheNextClientIsServed();
    }

    private void assertTheNextClientIsServed() throws IOException {
        try (RawConnection next = connect()) {
            RequestHeader header = next.send(ApiKeys.API_VERSIONS, (short) 3, new ApiVersionsRequestData()
                    .setClientSoftwareName("test").setClientSoftwareVersion("1"));
            assertThat(next.readFrame().getInt()).isEqualTo(header.correlationId());
        }
    }

    private RawConnection connect() throws IOException {
        return new RawConnection("127.0.0.1", socketServer.boundAddress().getPort());
    }
}

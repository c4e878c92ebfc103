package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.api.RequestHandlerPool;
import io.tributary.broker.quota.ClientQuotaEnforcer;
import io.tributary.broker.quota.ConnectionRateLimits;
import io.tributary.testkit.wire.RawConnection;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.network.ByteBufferSend;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code max.connection.creation.rate} against a real socket server: a burst of connections beyond the broker-wide
 * rate is not refused but taken at the rate, the acceptor waiting between them (rates over 2 samples of 1 s, so a
 * burst of about one second's worth goes at once), and a connection from a broker's address does not wait itself.
 */
@Timeout(60)
class ConnectionCreationRateTest {
    private static final int RATE = 10;
    private static final String BROKER_ADDRESS = "127.0.0.1";

    private final ClientQuotaEnforcer quotas = new ClientQuotaEnforcer(2, 1,
            new ConnectionRateLimits(RATE, Map.of(), Optional.empty()), Time.SYSTEM);
    private final List<RawConnection> opened = new ArrayList<>();
    private SocketServer server;
    private RequestHandlerPool handlers;

    private void start() throws IOException {
        RequestChannel channel = new RequestChannel(10);
        server = new SocketServer(new SocketServerConfig(new InetSocketAddress("127.0.0.1", 0), 1, 1 << 20, 600_000, 60_000, 10,
                1 << 24, ConnectionLimits.NONE, -1, -1, ChannelSecurity.plaintext(ListenerName.normalised("PLAINTEXT"))), channel,
                address -> address.equals(InetAddress.getLoopbackAddress()), quotas.connectionRates(), Time.SYSTEM);
        handlers = new RequestHandlerPool(1, channel, request -> CompletableFuture.completedFuture(Response.of(request,
                ByteBufferSend.sizePrefixed(ByteBuffer.allocate(4).putInt(0, request.header().correlationId())))));
        handlers.start();
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        RawConnection.closeAll(opened);
        if (server != null) {
            server.close();
            handlers.close();
        }
        quotas.close();
    }

    private RawConnection connect(String from) throws IOException {
        RawConnection connection = new RawConnection(from, "127.0.0.1", server.boundAddress().getPort());
        opened.add(connection);
        return connection;
    }

    private static void answered(RawConnection connection) throws IOException {
        connection.send(ApiKeys.API_VERSIONS, (short) 3, new ApiVersionsRequestData().setClientSoftwareName("t").setClientSoftwareVersion("1"));
        assertThat(connection.readFrame().remaining()).isEqualTo(4);
    }

    @Test
    void aBurstBeyondTheBrokerWideRateIsTakenAtTheRateNotRefused() throws Exception {
        start();
        long started = System.nanoTime();
        for (int i = 0; i < 3 * RATE; i++) {
            connect("127.0.0.2");
        }
        for (RawConnection connection : opened) {
            answered(connection); // every one: waiting, not refused
        }
        long elapsedMs = (System.nanoTime() - started) / 1_000_000;
        // About one second's worth at once, the other two seconds' worth at the rate.
        assertThat(elapsedMs).as("30 connections at 10 a second").isGreaterThanOrEqualTo(1_500);

        // The rate is at its bound now: clients' next 10 would take a second more. A broker's are taken at once.
        long brokerStarted = System.nanoTime();
        for (int i = 0; i < RATE; i++) {
            answered(connect(BROKER_ADDRESS));
        }
        assertThat((System.nanoTime() - brokerStarted) / 1_000_000).as("10 connections from a broker's address").isLessThan(700);
    }
}

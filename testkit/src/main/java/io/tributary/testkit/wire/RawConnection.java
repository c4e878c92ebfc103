package io.tributary.testkit.wire;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;

/**
 * A plain TCP connection to a broker for sending exactly the bytes a test wants: well-formed
 * requests at any version, or garbage.
 */
public final class RawConnection implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private int nextCorrelationId = 1;
    private String clientId = "raw-test";

    public RawConnection(String host, int port) throws IOException {
        this(null, host, port);
    }

    /** Connects from {@code localHost} (any loopback address 127.x.y.z works on Linux), or the default if null. */
    public RawConnection(String localHost, String host, int port) throws IOException {
        this(connect(localHost, host, port));
    }

    private RawConnection(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Connects from {@code localHost} (or the default if null) over TLS with {@code tls}'s key and trust material. */
    public static RawConnection overTls(String localHost, String host, int port, SSLContext tls) throws IOException {
        Socket plain = connect(localHost, host, port);
        try {
            SSLSocket secured = (SSLSocket) tls.getSocketFactory().createSocket(plain, host, port, true);
            secured.setUseClientMode(true);
            secured.setSoTimeout(10_000);
            secured.startHandshake();
            return new RawConnection(secured);
        } catch (IOException | RuntimeException e) {
            plain.close();
            throw e;
        }
    }

    private static Socket connect(String localHost, String host, int port) throws IOException {
        Socket socket = new Socket();
        try {
            if (localHost != null) {
                socket.bind(new InetSocketAddress(localHost, 0));
            }
            socket.connect(new InetSocketAddress(host, port), 5_000);
            return socket;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Connects to a broker given as {@code host:port}. */
    public static RawConnection to(String hostPort) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        return new RawConnection(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    /** Writes bytes as they are (the size prefix is the caller's business). */
    public void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Writes a size-prefixed frame. */
    public void writeFrame(ByteBuffer payload) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(4 + payload.remaining());
        frame.putInt(payload.remaining()).put(payload.duplicate()).flip();
        write(frame.array());
    }

    /** The client id the following requests carry ({@code raw-test} until set). @return this connection */
    public RawConnection withClientId(String clientId) {
        this.clientId = clientId;
        return this;
    }

    /** Sends a request serialized by kafka-clients at {@code version}. @return its header */
    public RequestHeader send(ApiKeys key, short version, ApiMessage body) throws IOException {
        RequestHeader header = new RequestHeader(key, version, clientId, nextCorrelationId++);
        writeFrame(RequestUtils.serialize(header.data(), header.headerVersion(), body, version));
        return header;
    }

    /** Sends a request and parses its response. */
    public AbstractResponse request(ApiKeys key, short version, ApiMessage body) throws IOException {
        RequestHeader header = send(key, version, body);
        return AbstractResponse.parseResponse(readFrame(), header);
    }

    /** Reads one size-prefixed response frame (without the prefix). */
    public ByteBuffer readFrame() throws IOException {
        int size = in.readInt();
        byte[] payload = new byte[size];
        in.readFully(payload);
        return ByteBuffer.wrap(payload);
    }

    /** True if the broker closes the connection within {@code timeout} (reads see end of stream). */
    public boolean closedByBroker(Duration timeout) throws IOException {
        socket.setSoTimeout((int) timeout.toMillis());
        try {
            while (in.read() >= 0) {
                // the broker may still be answering something; wait for the close
            }
            return true;
        } catch (EOFException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // connection reset
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** Closes every connection, ignoring those the broker closed already. */
    public static void closeAll(Collection<RawConnection> connections) {
        for (RawConnection connection : connections) {
            try {
                connection.close();
            } catch (IOException e) {
                // closed by the broker already
            }
        }
    }
}

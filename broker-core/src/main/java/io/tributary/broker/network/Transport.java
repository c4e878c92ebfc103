package io.tributary.broker.network;

import java.io.IOException;
import java.nio.channels.ReadableByteChannel;
import java.util.Optional;
import javax.net.ssl.SSLSession;
import org.apache.kafka.common.network.TransferableChannel;

/**
 * How a connection's bytes travel: as they are ({@link SocketChannelTransfer}) or through TLS ({@link TlsTransport}).
 * Frames are read from it and {@code Send}s written to it. Confined to the processor thread.
 */
interface Transport extends ReadableByteChannel, TransferableChannel {
    /** True once application bytes can flow (at once for plaintext, after the handshake for TLS). */
    boolean ready();

    /**
     * Advances the TLS handshake as far as the socket allows.
     *
     * @return the selection interest the handshake waits for, or 0 once {@link #ready()}
     * @throws javax.net.ssl.SSLException when the handshake fails (the peer is not speaking TLS, or not trusted)
     */
    int handshake() throws IOException;

    /** True if bytes already taken off the socket wait to be read: the selector will not report them. */
    boolean hasBufferedInput();

    /** The TLS session, once the handshake is done. */
    Optional<SSLSession> sslSession();
}

package io.tributary.broker.network;

import java.util.Optional;
import javax.net.ssl.SSLSession;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;

/** A PLAINTEXT listener's: everyone is {@code User:ANONYMOUS} from the first byte, as in Kafka. */
final class PlaintextAuthenticator implements Authenticator {
    static final Authenticator INSTANCE = new PlaintextAuthenticator();

    @Override
    public void transportReady(Optional<SSLSession> session) {
    }

    @Override
    public boolean authenticated() {
        return true;
    }

    @Override
    public KafkaPrincipal principal() {
        return KafkaPrincipal.ANONYMOUS;
    }

    @Override
    public int maxUnauthenticatedFrameBytes() {
        return Integer.MAX_VALUE;
    }

    @Override
    public Step handle(RequestHeader header, AbstractRequest request) {
        return Step.FORWARD;
    }

    @Override
    public void close() {
    }
}

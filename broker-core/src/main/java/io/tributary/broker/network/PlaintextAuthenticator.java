package io.tributary.broker.network;

import org.apache.kafka.common.security.auth.KafkaPrincipal;

/** A PLAINTEXT listener's: everyone is {@code User:ANONYMOUS} from the first byte, as in Kafka. */
final class PlaintextAuthenticator implements Authenticator {
    static final Authenticator INSTANCE = new PlaintextAuthenticator();

    @Override
    public boolean authenticated() {
        return true;
    }

    @Override
    public KafkaPrincipal principal() {
        return KafkaPrincipal.ANONYMOUS;
    }
}

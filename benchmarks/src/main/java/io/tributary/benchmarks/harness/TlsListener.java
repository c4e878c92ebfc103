package io.tributary.benchmarks.harness;

import java.util.Map;

/**
 * The SSL listener of a broker started with one ({@link BrokerFlavor#launch(java.nio.file.Path, BrokerSettings,
 * java.util.OptionalInt)}): clients reach it at its own address with TLS, trusting the run's certificates. Its CPU is
 * the whole broker's, whichever listener the load comes through.
 *
 * @param broker           the broker process, also reachable on PLAINTEXT
 * @param bootstrapServers {@code 127.0.0.1:<the SSL port>}
 * @param clientSecurity   {@code security.protocol=SSL} and the truststore
 */
record TlsListener(Broker broker, String bootstrapServers, Map<String, Object> clientSecurity) implements Broker {
    TlsListener {
        clientSecurity = Map.copyOf(clientSecurity);
    }

    @Override
    public double cpuSeconds() {
        return broker.cpuSeconds();
    }
}

package io.tributary.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Certificates made at test time with the JDK's keytool (none are committed): a broker key pair whose certificate
 * names 127.0.0.1 and localhost, a client key pair for mutual TLS, and one PKCS12 truststore trusting both, plus the
 * broker certificate as PEM for librdkafka and Node clients. All self-signed, valid for two days.
 */
public final class TestCertificates {
    public static final String PASSWORD = "test-store-password";
    private static final String BROKER_NAME = "CN=broker,OU=tributary-test";
    private static final String BROKER_ALTERNATIVE_NAMES = "SAN=ip:127.0.0.1,dns:localhost";

    private final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    public static TestCertificates create(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        TestCertificates certificates = new TestCertificates(dir);
        certificates.keyPair("broker", BROKER_NAME, BROKER_ALTERNATIVE_NAMES);
        certificates.keyPair("client", "CN=alice,OU=clients,O=tributary-test", null);
        certificates.exportPem("broker");
        certificates.exportPem("client");
        certificates.trust(certificates.truststore(), "broker", "client");
        return certificates;
    }

    /**
     * A renewed broker certificate: a new key pair named {@code alias} with the broker certificate's distinguished name
     * and subject alternative names, in {@link #keystore(String)} and {@link #pem(String)}; no truststore has it yet.
     */
    public void renewBroker(String alias) throws IOException, InterruptedException {
        keyPair(alias, BROKER_NAME, BROKER_ALTERNATIVE_NAMES);
        exportPem(alias);
    }

    /** A PKCS12 truststore {@code name}.p12 trusting the certificates of {@code aliases} only. */
    public Path truststore(String name, String... aliases) throws IOException, InterruptedException {
        Path truststore = dir.resolve(name + ".p12");
        trust(truststore, aliases);
        return truststore;
    }

    private void exportPem(String alias) throws IOException, InterruptedException {
        keytool("-exportcert", "-rfc", "-alias", alias, "-keystore", keystore(alias).toString(), "-storepass", PASSWORD,
                "-file", pem(alias).toString());
    }

    private void trust(Path truststore, String... aliases) throws IOException, InterruptedException {
        for (String alias : aliases) {
            keytool("-importcert", "-noprompt", "-alias", alias, "-file", pem(alias).toString(), "-keystore", truststore.toString(),
                    "-storetype", "PKCS12", "-storepass", PASSWORD);
        }
    }

    private void keyPair(String alias, String dname, String extension) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("-genkeypair", "-alias", alias, "-keyalg", "EC", "-groupname", "secp256r1",
                "-validity", "2", "-dname", dname, "-keystore", keystore(alias).toString(), "-storetype", "PKCS12",
                "-storepass", PASSWORD, "-keypass", PASSWORD));
        if (extension != null) {
            args.addAll(List.of("-ext", extension));
        }
        keytool(args.toArray(String[]::new));
    }

    private void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of("-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC")); // a short-lived JVM: start it fast
        command.addAll(List.of(args));
        Path output = dir.resolve("keytool.out");
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("keytool " + String.join(" ", args) + " did not finish within 60 s");
        }
        if (process.exitValue() != 0) {
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + Files.readString(output));
        }
    }

    public Path keystore(String alias) {
        return dir.resolve(alias + ".p12");
    }

    public Path truststore() {
        return dir.resolve("truststore.p12");
    }

    /** The certificate of {@code alias} ("broker", "client" or a renewed broker certificate) in PEM. */
    public Path pem(String alias) {
        return dir.resolve(alias + ".pem");
    }

    /** The broker's keystore and the shared truststore, with Kafka's keys, for a listener prefix ("" for all). */
    public Map<String, String> brokerSettings(String prefix) {
        Map<String, String> settings = new HashMap<>();
        settings.put(prefix + "ssl.keystore.location", keystore("broker").toString());
        settings.put(prefix + "ssl.keystore.password", PASSWORD);
        settings.put(prefix + "ssl.keystore.type", "PKCS12");
        settings.put(prefix + "ssl.key.password", PASSWORD);
        settings.put(prefix + "ssl.truststore.location", truststore().toString());
        settings.put(prefix + "ssl.truststore.password", PASSWORD);
        return settings;
    }

    /** TLS for a hand-made connection: trusts the broker and presents the certificate of {@code alias}. */
    public SSLContext sslContext(String alias) throws GeneralSecurityException, IOException {
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(KeyStore.getInstance(keystore(alias).toFile(), PASSWORD.toCharArray()), PASSWORD.toCharArray());
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(KeyStore.getInstance(truststore().toFile(), PASSWORD.toCharArray()));
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
        return context;
    }

    /** A kafka-clients client trusting the broker ({@code withCertificate}: presenting the client certificate too). */
    public Map<String, Object> clientSettings(String protocol, boolean withCertificate) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("security.protocol", protocol);
        settings.put("ssl.truststore.location", truststore().toString());
        settings.put("ssl.truststore.password", PASSWORD);
        if (withCertificate) {
            settings.put("ssl.keystore.location", keystore("client").toString());
            settings.put("ssl.keystore.password", PASSWORD);
            settings.put("ssl.key.password", PASSWORD);
        }
        return settings;
    }
}

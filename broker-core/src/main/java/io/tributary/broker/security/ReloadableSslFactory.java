package io.tributary.broker.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.net.ssl.SSLEngine;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.network.ConnectionMode;
import org.apache.kafka.common.security.ssl.SslFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kafka-clients' {@link SslFactory} for one listener (or for the followers' connections), rebuilt when its keystore or
 * truststore file changes: {@link #maybeReload()} (called every second by {@link TlsFileWatcher}) sees a file whose
 * modification time or size changed and, once it has stayed so for one call (a file being written settles first),
 * checks the new files as Kafka checks a dynamic keystore update ({@link SslFactory#validateReconfiguration}: they
 * load with the configured passwords, and the certificate keeps its distinguished name and subject alternative names
 * unless {@code ssl.allow.dn.changes} / {@code ssl.allow.san.changes}), then serves new connections from them.
 * Connections already open keep the engine they have. Files that fail the checks are refused with one log line and
 * the ones in use stay, until the files change again. Thread-safe: engines are made on network threads while the
 * watcher swaps the factory.
 */
final class ReloadableSslFactory {
    private static final Logger log = LoggerFactory.getLogger(ReloadableSslFactory.class);

    private final String owner;
    private final ConnectionMode mode;
    private final Map<String, Object> settings;
    private final List<Path> files;
    private volatile SslFactory factory;
    // confined to the watcher's thread
    private List<Object> loaded;
    private List<Object> refused;
    private List<Object> pending;

    private ReloadableSslFactory(String owner, ConnectionMode mode, Map<String, Object> settings, SslFactory factory) {
        this.owner = owner;
        this.mode = mode;
        this.settings = settings;
        this.factory = factory;
        this.files = Stream.of(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG)
                .map(settings::get).filter(location -> location != null && !location.toString().isBlank())
                .map(location -> Path.of(location.toString())).toList();
        this.loaded = stamps();
    }

    /**
     * @param owner what the files are for, in messages ("listener SSL")
     * @throws ConfigException naming {@code owner} if the keystore or truststore cannot be loaded
     */
    static ReloadableSslFactory create(String owner, ConnectionMode mode, Map<String, Object> settings) {
        Map<String, Object> own = new HashMap<>(settings);
        try {
            return new ReloadableSslFactory(owner, mode, own, configured(mode, own));
        } catch (KafkaException | IllegalArgumentException e) {
            throw new ConfigException(owner + ": TLS set-up failed: " + rootMessage(e));
        }
    }

    private static SslFactory configured(ConnectionMode mode, Map<String, Object> settings) {
        SslFactory factory = new SslFactory(mode);
        factory.configure(new HashMap<>(settings));
        return factory;
    }

    /** The keystore and truststore files to watch; none when the stores are given inline (PEM text). */
    List<Path> files() {
        return files;
    }

    SSLEngine createSslEngine(String peerHost, int peerPort) {
        return factory.createSslEngine(peerHost, peerPort);
    }

    SslFactory current() {
        return factory;
    }

    /** Loads the files again if they changed and have not changed since the last call. Called by one thread only. */
    void maybeReload() {
        List<Object> now = stamps();
        if (now.equals(loaded) || now.equals(refused)) {
            pending = null;
            return;
        }
        if (!now.equals(pending)) {
            pending = now;
            return;
        }
        pending = null;
        SslFactory current = factory;
        try {
            current.validateReconfiguration(settings);
            SslFactory fresh = configured(mode, settings);
            // The replaced factory is not closed: a connection being opened may still be using it, and it holds no resource.
            factory = fresh;
            loaded = now;
            log.info("{}: reloaded {}; new connections use them, open ones keep theirs{}", owner, files, describe(fresh));
        } catch (KafkaException | IllegalArgumentException | IllegalStateException e) {
            refused = now;
            log.error("{}: refused the changed {}, new connections keep the ones loaded before: {}", owner, files, rootMessage(e));
        }
    }

    /** Each file's modification time and size, or "missing". */
    private List<Object> stamps() {
        List<Object> stamps = new ArrayList<>();
        for (Path file : files) {
            try {
                stamps.add(List.of(Files.getLastModifiedTime(file).toMillis(), Files.size(file)));
            } catch (IOException e) {
                stamps.add("missing");
            }
        }
        return Collections.unmodifiableList(stamps);
    }

    private static String describe(SslFactory factory) {
        KeyStore keystore = factory.sslEngineFactory().keystore();
        if (keystore == null) {
            return "";
        }
        try {
            for (String alias : Collections.list(keystore.aliases())) {
                if (keystore.isKeyEntry(alias) && keystore.getCertificate(alias) instanceof X509Certificate certificate) {
                    return " (certificate " + certificate.getSubjectX500Principal() + ", serial " + certificate.getSerialNumber().toString(16)
                            + ", valid until " + certificate.getNotAfter().toInstant() + ")";
                }
            }
        } catch (KeyStoreException e) {
            return "";
        }
        return "";
    }

    private static String rootMessage(Throwable e) {
        StringBuilder message = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            message.append(": ").append(cause.getMessage());
        }
        return message.toString();
    }
}

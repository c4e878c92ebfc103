package io.tributary.broker.log.remote;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigException;

/**
 * Loads the broker's {@link RemoteStorage}: the first {@link RemoteStorageProvider} that {@link ServiceLoader} finds
 * on {@code remote.log.storage.manager.class.path} (in a class loader of its own, which asks the broker's first), or on
 * the broker's class path when that key is empty. broker-core never depends on the storage's libraries (Hadoop), so
 * a broker without tiered storage never loads them.
 */
public final class RemoteStorages {
    private RemoteStorages() {
    }

    /**
     * @throws ConfigException if no provider is found, or the storage's URI is missing
     */
    public static RemoteStorage load(RemoteLogConfig config) throws IOException {
        if (config.hdfsUri().isBlank()) {
            throw new ConfigException(RemoteLogConfig.REMOTE_LOG_STORAGE_HDFS_URI, config.hdfsUri(),
                    "tiered storage is on (remote.log.storage.system.enable=true) and needs the URI of its remote storage");
        }
        ClassLoader loader = classLoader(config.storageClassPath());
        Iterator<RemoteStorageProvider> providers = ServiceLoader.load(RemoteStorageProvider.class, loader).iterator();
        if (!providers.hasNext()) {
            throw new ConfigException(RemoteLogConfig.REMOTE_LOG_STORAGE_MANAGER_CLASS_PATH, config.storageClassPath(),
                    "no remote storage implementation found (the remote-storage-hdfs module: build it, or name its jar "
                            + "and lib/* here)");
        }
        return providers.next().open(config);
    }

    private static ClassLoader classLoader(String classPath) {
        ClassLoader broker = RemoteStorages.class.getClassLoader();
        if (classPath.isBlank()) {
            return broker;
        }
        List<URL> urls = new ArrayList<>();
        for (String entry : classPath.split(":")) {
            if (!entry.isBlank()) {
                urls.addAll(urls(entry.trim()));
            }
        }
        return new URLClassLoader("remote-storage", urls.toArray(URL[]::new), broker);
    }

    /** An entry's URLs: every jar of a folder for {@code folder/*}, else the file or folder itself. */
    private static List<URL> urls(String entry) {
        try {
            if (!entry.endsWith("*")) {
                return List.of(Path.of(entry).toUri().toURL());
            }
            Path folder = Path.of(entry.substring(0, entry.length() - 1));
            try (Stream<Path> files = Files.list(folder)) {
                List<URL> jars = new ArrayList<>();
                for (Path jar : files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().toList()) {
                    jars.add(jar.toUri().toURL());
                }
                return jars;
            }
        } catch (MalformedURLException e) {
            throw new ConfigException(RemoteLogConfig.REMOTE_LOG_STORAGE_MANAGER_CLASS_PATH, entry, e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + entry, e);
        }
    }
}

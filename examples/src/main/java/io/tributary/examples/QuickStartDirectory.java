package io.tributary.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The quick start's data directory ({@code ./tributary-data} by default) and what lives in it.
 * Each run starts from an empty directory so repeated runs agree; a marker file proves a
 * directory is the quick start's own before anything in it is deleted.
 */
public final class QuickStartDirectory {
    static final String MARKER = ".tributary-quickstart";

    private final Path root;

    private QuickStartDirectory(Path root) {
        this.root = root;
    }

    /**
     * Empties {@code dir} if an earlier quick start made it (or creates it) and marks it as ours.
     *
     * @throws IllegalStateException if {@code dir} holds anything else: nothing is deleted then
     */
    public static QuickStartDirectory prepare(Path dir) throws IOException {
        Path root = dir.toAbsolutePath().normalize();
        if (Files.exists(root)) {
            if (!Files.isDirectory(root)) {
                throw new IllegalStateException(root + " is a file, not a directory; choose another --data-dir");
            }
            boolean empty;
            try (Stream<Path> entries = Files.list(root)) {
                empty = entries.findAny().isEmpty();
            }
            if (!empty && !Files.exists(root.resolve(MARKER))) {
                throw new IllegalStateException(root + " exists and was not made by the quick start; remove it or "
                    + "choose another --data-dir (nothing was deleted)");
            }
            deleteContents(root);
        }
        Files.createDirectories(root);
        Files.writeString(root.resolve(MARKER), "made by bin/tributary-quickstart; it empties this directory on every run\n");
        return new QuickStartDirectory(root);
    }

    private static void deleteContents(Path root) throws IOException {
        try (Stream<Path> tree = Files.walk(root)) {
            tree.sorted(Comparator.reverseOrder()).filter(path -> !path.equals(root)).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    public Path root() {
        return root;
    }

    /** The broker's log dirs and its embedded ZooKeeper. */
    public Path broker() {
        return root.resolve("broker");
    }

    /** The Parquet dataset both the sink and the loader write. */
    public Path warehouse() {
        return root.resolve("warehouse");
    }

    public Path schemas() {
        return root.resolve("schemas");
    }

    /** Scratch space of the local job runner. */
    public Path hadoop() {
        return root.resolve("hadoop");
    }

    public Path errorsPerHost() {
        return root.resolve("reports").resolve("errors-per-host");
    }

    public Path log() {
        return root.resolve("quickstart.log");
    }
}

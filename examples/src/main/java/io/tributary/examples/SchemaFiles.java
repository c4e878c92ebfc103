package io.tributary.examples;

import org.apache.avro.Schema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The examples' Avro schemas ship in the jar; the sink and the loader take a schema file, so this
 * writes one out where they can read it.
 */
public final class SchemaFiles {
    private SchemaFiles() {
    }

    /** The schema text of a class-path resource, e.g. {@code /io/tributary/examples/pageviews/page-view.avsc}. */
    public static String text(String resource) {
        try (InputStream in = SchemaFiles.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no schema resource " + resource + " on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Schema parse(String resource) {
        return new Schema.Parser().parse(text(resource));
    }

    /** Writes the resource into {@code dir} under its own file name and returns the file. */
    public static Path writeTo(String resource, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(resource.substring(resource.lastIndexOf('/') + 1));
        Files.writeString(file, text(resource), StandardCharsets.UTF_8);
        return file;
    }
}

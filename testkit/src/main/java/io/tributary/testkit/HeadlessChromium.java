package io.tributary.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Chromium ({@code /usr/bin/chromium}, the {@code chromium} package) run headless, as a person's browser would
 * render a page: the rendered DOM, or a screenshot. Each call is one browser process with a fresh profile, its
 * background connections off (they would be refused on a closed network), bounded by a deadline.
 */
public final class HeadlessChromium {
    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final long TIMEOUT_SECONDS = 90;

    private final Path profiles;

    /** @param workDir where the browser profiles go (a test's temporary folder) */
    public HeadlessChromium(Path workDir) {
        this.profiles = workDir;
    }

    /** The DOM of {@code url} once loaded, serialized as HTML. */
    public String dumpDom(String url) throws IOException, InterruptedException {
        return run(List.of("--dump-dom", url));
    }

    /** Renders {@code url} in a window {@code width} x {@code height} and saves it as a PNG to {@code png}. */
    public void screenshot(String url, Path png, int width, int height) throws IOException, InterruptedException {
        Files.createDirectories(png.toAbsolutePath().getParent());
        Files.deleteIfExists(png);
        run(List.of("--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height, "--hide-scrollbars", url));
        if (!Files.isRegularFile(png) || Files.size(png) == 0) {
            throw new IOException("chromium wrote no screenshot to " + png);
        }
    }

    private String run(List<String> arguments) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(profiles, "chromium-profile");
        List<String> command = new ArrayList<>(List.of(CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile));
        command.addAll(arguments);
        Path stdout = profile.resolve("stdout");
        Path stderr = profile.resolve("stderr");
        Process process = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IOException("chromium did not finish within " + TIMEOUT_SECONDS + " s: " + command);
        }
        if (process.exitValue() != 0) {
            throw new IOException("chromium exited " + process.exitValue() + ": " + Files.readString(stderr, StandardCharsets.UTF_8));
        }
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }
}

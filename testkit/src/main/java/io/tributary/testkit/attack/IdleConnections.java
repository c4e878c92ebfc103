package io.tributary.testkit.attack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code count} idle connections from {@code fromAddress} (any 127.x.y.z on Linux), held by a child JVM
 * ({@link IdleConnectionsMain}) so that their client ends do not count against this JVM's descriptors.
 */
public final class IdleConnections implements Attack {
    private final int count;
    private final String fromAddress;
    private final Outcomes outcomes = new Outcomes();
    private Process holder;

    public IdleConnections(int count, String fromAddress) {
        this.count = count;
        this.fromAddress = fromAddress;
    }

    @Override
    public String description() {
        return String.format("%,d idle connections", count);
    }

    /** Returns once the child JVM holds every connection. @throws IOException if it could not open them all */
    @Override
    public void start(String host, int port) throws IOException {
        holder = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-cp", System.getProperty("java.class.path"), IdleConnectionsMain.class.getName(),
                fromAddress, host, String.valueOf(port), String.valueOf(count)))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start(); // stdout carries the answer; stderr (the JVM's own notes, such as JDK_JAVA_OPTIONS) goes to ours
        String line = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8)).readLine();
        if (!("OPEN " + count).equals(line)) {
            close();
            throw new IOException("the connection holder said " + line + " instead of OPEN " + count);
        }
        outcomes.add("opened");
    }

    /** Whether the child JVM still holds its connections. */
    public boolean holding() {
        return holder != null && holder.isAlive();
    }

    @Override
    public Map<String, Integer> outcomes() {
        return outcomes.snapshot();
    }

    @Override
    public void close() {
        if (holder == null) {
            return;
        }
        try {
            holder.getOutputStream().close();
            if (!holder.waitFor(30, TimeUnit.SECONDS)) {
                holder.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (IOException e) {
            holder.destroyForcibly();
        } catch (InterruptedException e) {
            holder.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}

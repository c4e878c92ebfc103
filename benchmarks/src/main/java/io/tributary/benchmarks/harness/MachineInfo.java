package io.tributary.benchmarks.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The machine a run was measured on, for the report. Values that cannot be read are "unknown". */
public record MachineInfo(int cpus, String cpuModel, String memory, String java, String os, String loadAverage) {
    private static final String UNKNOWN = "unknown";

    /** Reads this machine's facts from the JVM and {@code /proc}. */
    public static MachineInfo read(Path procRoot) {
        return new MachineInfo(
                Runtime.getRuntime().availableProcessors(),
                field(lines(procRoot.resolve("cpuinfo")), "model name"),
                memory(field(lines(procRoot.resolve("meminfo")), "MemTotal")),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version"),
                String.join(" ", firstWords(lines(procRoot.resolve("loadavg")), 3)));
    }

    /** Whether the 1-minute load average exceeded the CPU count when the facts were read. */
    public boolean busyAtStart() {
        try {
            return Double.parseDouble(loadAverage.split(" ")[0]) > cpus;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The value of the first {@code key : value} line with that key. */
    private static String field(List<String> lines, String key) {
        return lines.stream()
                .filter(line -> line.startsWith(key) && line.indexOf(':') > 0)
                .map(line -> line.substring(line.indexOf(':') + 1).trim())
                .findFirst()
                .orElse(UNKNOWN);
    }

    /** "24609148 kB" as "23.5 GiB". */
    private static String memory(String memTotal) {
        String[] parts = memTotal.split("\\s+");
        if (parts.length != 2 || !parts[1].equals("kB")) {
            return memTotal;
        }
        return String.format(Locale.ROOT, "%.1f GiB", Long.parseLong(parts[0]) / (1024.0 * 1024.0));
    }

    private static List<String> firstWords(List<String> lines, int count) {
        if (lines.isEmpty()) {
            return List.of(UNKNOWN);
        }
        List<String> words = List.of(lines.get(0).trim().split("\\s+"));
        return words.subList(0, Math.min(count, words.size()));
    }
}

package io.tributary.benchmarks.harness;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Command-line options of {@link HarnessMain}.
 *
 * <pre>[--quick] [--candidate=kafka|tributary] [--docs=DIR] [--work=DIR] [--only=idle-fetch|transactions|tls]</pre>
 *
 * @param quick     the short plan, for development
 * @param candidate the broker on side B (side A is always Apache Kafka)
 * @param docsDir   where benchmarks.md and the charts' folder are
 * @param workDir   where the brokers keep their data and logs; emptied at the start of a run
 * @param command   the command line that reproduces this run, for the report
 * @param only      a workload run on its own instead of the whole comparison, if given: {@link IdleFetchWorkload#NAME},
 *                  {@link TransactionalProducePhase#NAME} (a check of that phase: the docs are not rewritten) or
 *                  {@link TlsWorkload#NAME}
 */
public record HarnessOptions(boolean quick, BrokerFlavor candidate, Path docsDir, Path workDir, String command,
                             Optional<String> only) {
    /** The workloads {@code --only} runs on their own. */
    public static final List<String> SINGLE_WORKLOADS = List.of(IdleFetchWorkload.NAME, TransactionalProducePhase.NAME, TlsWorkload.NAME);
    public static final String USAGE = "usage: benchmarks/run [--quick] [--candidate=kafka|tributary] [--docs=DIR] [--work=DIR] "
            + "[--only=" + String.join("|", SINGLE_WORKLOADS) + "]";

    /** @throws IllegalArgumentException on an unknown or malformed option, with the usage */
    public static HarnessOptions parse(String[] args, BrokerFlavor defaultCandidate) {
        boolean quick = false;
        BrokerFlavor candidate = defaultCandidate;
        Path docsDir = Path.of("docs");
        Path workDir = Path.of("benchmarks", "target", "harness");
        Optional<String> only = Optional.empty();
        for (String arg : args) {
            if (arg.equals("--quick")) {
                quick = true;
            } else if (arg.startsWith("--candidate=")) {
                candidate = BrokerFlavor.fromOptionName(valueOf(arg));
            } else if (arg.startsWith("--docs=")) {
                docsDir = Path.of(valueOf(arg));
            } else if (arg.startsWith("--work=")) {
                workDir = Path.of(valueOf(arg));
            } else if (arg.startsWith("--only=")) {
                only = Optional.of(valueOf(arg));
                if (!SINGLE_WORKLOADS.contains(only.get())) {
                    throw new IllegalArgumentException("unknown workload '" + only.get() + "'\n" + USAGE);
                }
            } else {
                throw new IllegalArgumentException("unknown option '" + arg + "'\n" + USAGE);
            }
        }
        return new HarnessOptions(quick, candidate, docsDir, workDir, String.join(" ", "benchmarks/run", String.join(" ", args)).trim(),
                only);
    }

    /** Whether {@code --only} named {@code workload}. */
    public boolean only(String workload) {
        return only.filter(workload::equals).isPresent();
    }

    private static String valueOf(String option) {
        String value = option.substring(option.indexOf('=') + 1);
        if (value.isEmpty()) {
            throw new IllegalArgumentException("option " + option + " needs a value\n" + USAGE);
        }
        return value;
    }
}

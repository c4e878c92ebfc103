package io.tributary.benchmarks.harness;

import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * {@code benchmarks/run [--quick]}: measures Tributary side by side with Apache Kafka 4.4, prints
 * a table, rewrites the generated part of docs/benchmarks.md and its charts, and prints the
 * {@code EXTRA ...} line (replication factor 3, consumer group) and then the {@code RESULT ...}
 * line (replication factor 1) last; {@code --only=transactions} measures the transactional produce phase alone and
 * prints its table only; {@code --only=idle-fetch} and {@code --only=tls} run those workloads, each into its own section
 * of docs/benchmarks.md. Exit status 2 on bad options, 1 on a failed run, 124 on timeout.
 */
public final class HarnessMain {
    /** The broker on side B by default. The one-line switch from Kafka-vs-Kafka to Tributary-vs-Kafka. */
    static final BrokerFlavor DEFAULT_CANDIDATE = BrokerFlavor.TRIBUTARY;

    /** reload4j configuration (a class path resource) of the harness and of both broker JVMs: WARN and up. */
    static final String LOG4J_CONFIGURATION = "io/tributary/benchmarks/harness/log4j.properties";

    private HarnessMain() {
    }

    public static void main(String[] args) throws Exception {
        HarnessOptions options;
        try {
            options = HarnessOptions.parse(args, DEFAULT_CANDIDATE);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (options.only(IdleFetchWorkload.NAME)) {
            runIdleFetch(options);
            return;
        }
        if (options.only(TlsWorkload.NAME)) {
            runTls(options);
            return;
        }
        RunPlan plan = options.quick() ? RunPlan.quick() : RunPlan.full();
        RunDeadline.start(plan.timeLimit(), System.err);
        MachineInfo machine = MachineInfo.read(Path.of("/proc"));
        Map<Side, BrokerFlavor> flavors = new EnumMap<>(Map.of(
                Side.BASELINE, BrokerFlavor.APACHE_KAFKA, Side.CANDIDATE, options.candidate()));

        Harness harness = new Harness(plan, BrokerSettings.standard(), BrokerSettings.replicated(), flavors, options.workDir(),
                ChildProcesses.withShutdownHook(), ProcStat.forThisMachine(), new RoundBudget(System::nanoTime, plan.timeBudget()),
                System.err);
        if (options.only(TransactionalProducePhase.NAME)) {
            RunResult result = harness.runTransactionsOnly();
            System.out.println();
            System.out.print(Tables.text(SummaryRows.header(result), SummaryRows.rows(result)));
            System.out.println("transactional produce only (run took " + result.elapsed().toSeconds()
                    + " s): docs not rewritten, no RESULT line");
            System.out.flush();
            System.exit(0);
        }
        RunResult result = harness.run();

        System.out.println();
        System.out.print(Tables.text(SummaryRows.header(result), SummaryRows.rows(result)));
        Path markdown = DocsWriter.write(options.docsDir(), result, machine, options.command(), Instant.now());
        System.out.println("wrote " + markdown + " and its charts; run took " + result.elapsed().toSeconds() + " s");
        System.out.println(result.extraResultLine());
        System.out.println(result.resultLine());
        System.out.flush();
        System.exit(0);
    }

    /** {@code --only=idle-fetch}: that workload alone, into its own section of docs/benchmarks.md. */
    private static void runIdleFetch(HarnessOptions options) throws Exception {
        IdleFetchWorkload.Plan plan = options.quick() ? IdleFetchWorkload.Plan.quick() : IdleFetchWorkload.Plan.full();
        RunDeadline.start(plan.timeLimit(), System.err);
        MachineInfo atStart = MachineInfo.read(Path.of("/proc"));
        List<IdleFetchWorkload.Row> rows = new IdleFetchWorkload(plan, options.candidate(), options.workDir(),
                ChildProcesses.withShutdownHook(), ProcStat.forThisMachine(), System.err).run();
        System.out.println();
        System.out.print(IdleFetchReport.text(rows));
        Path markdown = DocsWriter.writeSection(options.docsDir(), IdleFetchReport.SECTION, IdleFetchReport.markdown(rows, plan,
                options.command(), Instant.now(), atStart, MachineInfo.read(Path.of("/proc"))));
        System.out.println("wrote the idle-fetch section of " + markdown);
        System.out.println(IdleFetchReport.resultLine(rows));
        System.out.flush();
        System.exit(0);
    }

    /** {@code --only=tls}: that workload alone, into its own section of docs/benchmarks.md. */
    private static void runTls(HarnessOptions options) throws Exception {
        TlsWorkload.Plan plan = options.quick() ? TlsWorkload.Plan.quick() : TlsWorkload.Plan.full();
        RunDeadline.start(plan.timeLimit(), System.err);
        MachineInfo atStart = MachineInfo.read(Path.of("/proc"));
        TlsResult result = new TlsWorkload(plan, options.candidate(), options.workDir(), ChildProcesses.withShutdownHook(),
                ProcStat.forThisMachine(), System.err).run();
        System.out.println();
        System.out.print(TlsReport.text(result));
        Path markdown = DocsWriter.writeSection(options.docsDir(), TlsReport.SECTION, TlsReport.markdown(result, plan,
                options.command(), Instant.now(), atStart, MachineInfo.read(Path.of("/proc"))));
        System.out.println("wrote the tls section of " + markdown);
        System.out.println(TlsReport.costLine(result));
        System.out.println(TlsReport.resultLine(result));
        System.out.flush();
        System.exit(0);
    }
}

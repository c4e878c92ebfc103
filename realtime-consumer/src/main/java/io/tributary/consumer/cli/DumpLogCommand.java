package io.tributary.consumer.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code tributary dump-log <segment.log>}: prints and verifies a segment file, no broker needed. */
@Command(name = "dump-log", mixinStandardHelpOptions = true, description = "Print and verify a log segment file (offsets, timestamps, CRCs).")
final class DumpLogCommand implements Callable<Integer> {
    private final CliContext context;

    @Mixin
    ConnectionOptions connection; // Taken like every subcommand; a segment dump needs no broker.

    @Parameters(paramLabel = "<segment.log>")
    Path segment;

    @Option(names = "--print-records", description = "Also print every record (key and value as UTF-8).")
    boolean printRecords;

    DumpLogCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws IOException {
        if (!Files.isRegularFile(segment)) {
            throw new CliException("no such segment file: " + segment);
        }
        SegmentDump.Summary summary = new SegmentDump(segment, printRecords, context.out()).run();
        context.out().println(summary);
        if (!summary.problems().isEmpty()) {
            throw new CliException(segment + " failed verification: " + summary.problems().get(0)
                    + (summary.problems().size() > 1 ? " (and " + (summary.problems().size() - 1) + " more)" : ""));
        }
        return 0;
    }
}

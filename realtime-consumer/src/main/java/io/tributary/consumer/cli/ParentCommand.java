package io.tributary.consumer.cli;

import picocli.CommandLine;

/** A command that only groups subcommands ({@code topics}, {@code groups}): alone it is a usage error. */
abstract class ParentCommand implements Runnable {
    protected final CliContext context;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    ParentCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand");
    }
}

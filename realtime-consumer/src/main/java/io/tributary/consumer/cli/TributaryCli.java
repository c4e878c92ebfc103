package io.tributary.consumer.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParseResult;

import java.lang.reflect.Constructor;
import java.util.Arrays;

/**
 * {@code bin/tributary}: topics, produce, consume, groups, reassign, elect and dump-log, with Kafka-tool flags.
 * Exit codes: 0 done, 1 the operation failed, 2 bad command line. Every error is one line on
 * stderr; {@code --verbose} adds the stack trace.
 */
@Command(name = "tributary", mixinStandardHelpOptions = true, version = "tributary 0.1.0",
        description = "Operate topics, produce and consume records, manage consumer groups, move replicas and leaders, "
                + "inspect segments.",
        subcommands = {TopicsCommand.class, ProduceCommand.class, ConsumeCommand.class, GroupsCommand.class,
                ReassignCommand.class, ElectCommand.class, DumpLogCommand.class, CommandLine.HelpCommand.class})
public final class TributaryCli implements Runnable {
    static final int FAILED = 1;
    static final int USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        if (!Arrays.asList(args).contains("--verbose")) {
            // Before the first logger exists: silence the client libraries (see the file).
            System.setProperty("log4j.configuration", "tributary-cli-quiet.log4j.properties");
        }
        System.exit(commandLine(CliContext.system()).execute(args));
    }

    /** The command line wired to {@code context}: its streams, clients settings and clock. */
    public static CommandLine commandLine(CliContext context) {
        CommandLine commandLine = new CommandLine(new TributaryCli(), new ContextFactory(context));
        commandLine.setOut(context.out());
        commandLine.setErr(context.err());
        commandLine.setParameterExceptionHandler((error, args) -> {
            CommandLine failed = error.getCommandLine();
            failed.getErr().println("tributary: " + oneLine(error.getMessage())
                    + " (see '" + failed.getCommandSpec().qualifiedName() + " --help')");
            return USAGE;
        });
        commandLine.setExecutionExceptionHandler((error, failed, parseResult) -> {
            failed.getErr().println("tributary: " + CliErrors.describe(error, bootstrapServer(parseResult)));
            if (matched(parseResult, "--verbose")) {
                error.printStackTrace(failed.getErr());
            }
            return FAILED;
        });
        return commandLine;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
    }

    private static String oneLine(String message) {
        return message.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }

    private static boolean matched(ParseResult parseResult, String option) {
        for (ParseResult level = parseResult; level != null; level = level.subcommand()) {
            if (level.hasMatchedOption(option)) {
                return true;
            }
        }
        return false;
    }

    private static String bootstrapServer(ParseResult parseResult) {
        String bootstrap = ConnectionOptions.DEFAULT_BOOTSTRAP;
        for (ParseResult level = parseResult; level != null; level = level.subcommand()) {
            bootstrap = level.matchedOptionValue("--bootstrap-server", bootstrap);
        }
        return bootstrap;
    }

    /** Gives commands that take a {@link CliContext} in their constructor the context. */
    private record ContextFactory(CliContext context) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                Class<?>[] parameters = constructor.getParameterTypes();
                if (parameters.length == 1 && parameters[0] == CliContext.class) {
                    constructor.setAccessible(true);
                    return type.cast(constructor.newInstance(context));
                }
            }
            return CommandLine.defaultFactory().create(type);
        }
    }
}

/**
 * The {@code tributary} command line (picocli): one class per subcommand, all output through a
 * {@link io.tributary.consumer.cli.CliContext} so tests run it in-process with captured streams.
 * Commands throw; {@link io.tributary.consumer.cli.TributaryCli} turns every failure into one line
 * on stderr and an exit code (1 failed, 2 usage).
 */
package io.tributary.consumer.cli;

package io.tributary.consumer.cli;

import io.tributary.testkit.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Command-line errors that need no broker: bad flags, and a broker that is not there. */
class TributaryCliTest {
    private final CliRunner unreachable = CliRunner.unreachable("127.0.0.1:" + FreePorts.next(), 1500);

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "topics create t --partitions 3 --bogus | Unknown option: '--bogus'",
        "topics create t                        | Missing required option: '--partitions=N'",
        "topics create t --partitions x         | Invalid value for option '--partitions'",
        "topics                                 | missing subcommand",
        "groups                                 | missing subcommand",
        "frobnicate                             | Unmatched argument at index 0: 'frobnicate'",
        "produce t --acks 2                     | expected all, 1 or 0, got '2'",
        "produce t --compression brotli         | Invalid value for option '--compression'",
        "consume t --format {nope}              | unknown placeholder {nope}",
        "consume t --from-beginning --from-datetime 2026-01-01T00:00:00Z | mutually exclusive",
        "consume t --from-datetime yesterday    | 'yesterday' is not an ISO-8601 date-time",
        "consume t --isolation-level committed  | Invalid value for option '--isolation-level'",
        "groups reset g --topic t               | Missing required argument",
        "groups reset g --topic t --to-earliest --to-latest | mutually exclusive",
        "dump-log                               | Missing required parameter: '<segment.log>'",
    })
    void aBadCommandLineIsOneLineAndExitCodeTwo(String args, String expected) {
        CliRunner.Result result = unreachable.runExactly("", args.trim().split("\\s+"));

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(2);
        assertThat(result.err().lines()).as(result.toString()).singleElement().asString()
                .startsWith("tributary: ").contains(expected).contains("--help");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void helpListsTheSubcommands() {
        CliRunner.Result result = unreachable.runExactly("", "--help");

        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("topics", "produce", "consume", "groups", "dump-log");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "topics                | create         | alter",
        "topics create         | --partitions=N | --replication-factor=R",
        "topics alter          | --config=k=v   | --bootstrap-server",
        "produce               | --rate=N       | --bootstrap-server",
        "consume               | --format=TEMPLATE | --isolation-level=L",
        "groups                | list           | reset",
        "groups reset          | --shift-by=N   | --execute",
        "dump-log              | <segment.log>  | --print-records",
    })
    void everySubcommandHasHelp(String command, String expected, String alsoExpected) {
        String[] args = (command.trim() + " --help").split("\\s+");
        CliRunner.Result result = unreachable.runExactly("", args);

        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.out()).startsWith("Usage: tributary " + command.trim())
                .contains(expected.trim(), alsoExpected.trim());
    }

    @ParameterizedTest
    @CsvSource({"topics,list", "groups,list"})
    void anUnreachableBrokerIsOneLineAndExitCodeOne(String command, String subcommand) {
        CliRunner.Result result = unreachable.run(command, subcommand);

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(1);
        assertThat(result.err().lines()).singleElement().asString()
                .startsWith("tributary: no answer from the broker at 127.0.0.1:");
    }

    @Test
    void verbosePrintsTheStackTrace() {
        CliRunner.Result result = unreachable.run("topics", "list", "--verbose");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).startsWith("tributary: no answer from the broker");
        assertThat(result.err().lines().skip(1)).first().asString()
                .startsWith("org.apache.kafka.common.errors.TimeoutException: Timed out waiting");
    }

    @Test
    void produceChecksTheBrokerBeforeReadingInput() {
        CliRunner.Result result = unreachable.runWithInput("a\nb\n", "produce", "t");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).startsWith("tributary: no answer from the broker");
    }
}

package io.tributary.hadoop.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.hadoop.input.DelegationTokens;
import io.tributary.hadoop.input.InputConfig;
import io.tributary.hadoop.input.TokenRenewal;
import io.tributary.hadoop.testing.Datasets;
import io.tributary.hadoop.testing.LoaderCommand;
import io.tributary.hadoop.testing.TestBroker;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.ToolRunner;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/tributary-loader --delegation-token} against a broker ({@code -Dit.broker}: Tributary or Apache Kafka 4.4)
 * with a SASL/SCRAM listener and delegation tokens on: the loader logs in as its user, creates a token, hands it to the
 * tasks in the job's credentials and keeps the user's password out of the job's configuration; the tasks load the topic
 * logged in with the token alone, and the token is expired once the job is over.
 */
@Timeout(180)
class DelegationTokenLoaderIT {
    private static final String TOPIC = "ledger-entries";
    private static final int PER_PARTITION = 300;
    /** Short, so that a token the loader does not renew would expire during its job. */
    private static final long TOKEN_EXPIRY_MS = 8_000;
    private static final Map<String, String> ETL = TestBroker.scramLogin("etl", "etl-secret");

    @TempDir
    static java.nio.file.Path work;
    private static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.startWithTokens(work.resolve("broker"), Duration.ofMillis(TOKEN_EXPIRY_MS));
        broker.addScramUser("etl", "etl-secret");
        broker.createTopic(TOPIC, 2);
        broker.produce(TOPIC, 2, PER_PARTITION, System.currentTimeMillis(), 1, (p, i) -> ("v" + i).getBytes(StandardCharsets.UTF_8));
        TestBroker.writeScramClientConfig(work.resolve("etl.properties"), "etl", "etl-secret");
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aJobWithATokenCarriesNoPassword() throws Exception {
        Configuration submitter = submitter();
        Job job = Job.getInstance(submitter);

        DelegationToken token = DelegationTokens.obtain(submitter, job);
        try {
            assertThat(job.getConfiguration().get(InputConfig.CONSUMER_PREFIX + SaslConfigs.SASL_JAAS_CONFIG)).isNull();
            assertThat(submitter.get(InputConfig.CONSUMER_PREFIX + SaslConfigs.SASL_JAAS_CONFIG))
                .isEqualTo(ETL.get(SaslConfigs.SASL_JAAS_CONFIG));
            assertThat(job.getCredentials().getAllSecretKeys()).extracting(Text::toString)
                .contains("tributary.kafka.delegation.token.id", "tributary.kafka.delegation.token.hmac");
            assertThat(token.tokenInfo().owner().getName()).isEqualTo("etl");
        } finally {
            DelegationTokens.expire(submitter, token);
        }
        awaitNoTokenOfEtl();
    }

    @Test
    void aTokenIsRenewedWhileItsJobRuns() throws Exception {
        Configuration submitter = submitter();
        DelegationToken token = DelegationTokens.obtain(submitter, Job.getInstance(submitter));
        try (TokenRenewal renewal = TokenRenewal.start(submitter, token)) {
            long firstExpiry = token.tokenInfo().expiryTimestamp();
            await().atMost(Duration.ofMillis(3 * TOKEN_EXPIRY_MS)).pollInterval(Duration.ofMillis(500))
                .until(() -> tokensOfEtl().stream().mapToLong(t -> t.tokenInfo().expiryTimestamp()).max().orElse(0) > firstExpiry);
        } finally {
            DelegationTokens.expire(submitter, token);
        }
    }

    @Test
    void theTasksLoadTheTopicWithTheTokenWhichIsExpiredAfterwards() throws Exception {
        Path output = new Path(work.resolve("lake").toUri());
        List<String> args = new ArrayList<>(localRunner());
        args.addAll(List.of("--bootstrap-server", broker.saslBootstrapServers(), "--topic", TOPIC, "--output", output.toString(),
            "--command-config", work.resolve("etl.properties").toString(), "--delegation-token"));
        LoaderCommand.Result result = load(args);
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.stdout()).contains("loaded " + 2 * PER_PARTITION + " records");
        Datasets.assertEveryOffsetOnce(output, TOPIC, 2, PER_PARTITION, new Configuration());
        awaitNoTokenOfEtl();
    }

    @Test
    void aTokenWithoutASaslLoginFailsWithOneLine() throws Exception {
        Path output = new Path(work.resolve("plain-lake").toUri());
        List<String> args = new ArrayList<>(localRunner());
        args.addAll(List.of("--bootstrap-server", broker.bootstrapServers(), "--topic", TOPIC, "--output", output.toString(),
            "--delegation-token"));
        LoaderCommand.Result result = load(args);
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.stderr().lines().filter(line -> line.startsWith("tributary-loader: "))).singleElement().asString()
            .contains("a delegation token needs a SASL login", "not PLAINTEXT");
    }

    /** The job settings of a submitter logged in as etl. */
    private static Configuration submitter() {
        Configuration submitter = new Configuration(false);
        submitter.set(InputConfig.BOOTSTRAP_SERVERS, broker.saslBootstrapServers());
        submitter.set(InputConfig.TOPIC, TOPIC);
        ETL.forEach((key, value) -> submitter.set(InputConfig.CONSUMER_PREFIX + key, value));
        return submitter;
    }

    private static List<String> localRunner() {
        return List.of("-D", "mapreduce.framework.name=local", "-D", "fs.defaultFS=file:///",
            "-D", "hadoop.tmp.dir=" + work.resolve("hadoop-tmp"),
            "-D", "mapreduce.jobtracker.staging.root.dir=" + work.resolve("staging"));
    }

    private static LoaderCommand.Result load(List<String> args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = ToolRunner.run(new Configuration(), new TopicLoader(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)), args.toArray(String[]::new));
        return new LoaderCommand.Result(exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Expired tokens are gone (Apache Kafka's brokers learn of it through the metadata log, a moment later). */
    private static void awaitNoTokenOfEtl() {
        await("etl's tokens expired").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
            .until(() -> tokensOfEtl().isEmpty());
    }

    private static List<DelegationToken> tokensOfEtl() throws Exception {
        Map<String, Object> settings = new java.util.HashMap<>(ETL);
        settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.saslBootstrapServers());
        try (Admin admin = Admin.create(settings)) {
            return admin.describeDelegationToken().delegationTokens().get();
        }
    }
}

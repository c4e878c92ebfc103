package io.tributary.benchmarks.harness;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HarnessOptionsTest {
    @Test
    void defaultsToTheFullRunAgainstTheDefaultCandidateWritingIntoDocs() {
        HarnessOptions options = HarnessOptions.parse(new String[0], BrokerFlavor.TRIBUTARY);
        assertThat(options.quick()).isFalse();
        assertThat(options.candidate()).isEqualTo(BrokerFlavor.TRIBUTARY);
        assertThat(options.docsDir()).isEqualTo(Path.of("docs"));
        assertThat(options.command()).isEqualTo("benchmarks/run");
        assertThat(options.only()).isEmpty();
    }

    @Test
    void runsOneWorkloadAloneOnlyIfItKnowsIt() {
        assertThat(HarnessOptions.parse(new String[] {"--only=idle-fetch"}, BrokerFlavor.TRIBUTARY).only()).hasValue("idle-fetch");
        assertThat(HarnessOptions.parse(new String[] {"--only=tls"}, BrokerFlavor.TRIBUTARY).only(TlsWorkload.NAME)).isTrue();
        assertThatThrownBy(() -> HarnessOptions.parse(new String[] {"--only=produce"}, BrokerFlavor.TRIBUTARY))
                .hasMessageContaining("unknown workload 'produce'").hasMessageContaining("--only=idle-fetch|transactions|tls");
    }

    @Test
    void parsesEveryOptionAndKeepsTheCommandLineForTheReport() {
        String[] args = {"--quick", "--candidate=kafka", "--docs=/tmp/d", "--work=/tmp/w", "--only=transactions"};
        HarnessOptions options = HarnessOptions.parse(args, BrokerFlavor.TRIBUTARY);
        assertThat(options.quick()).isTrue();
        assertThat(options.only(TransactionalProducePhase.NAME)).isTrue();
        assertThat(options.only(IdleFetchWorkload.NAME)).isFalse();
        assertThat(options.candidate()).isEqualTo(BrokerFlavor.APACHE_KAFKA);
        assertThat(options.docsDir()).isEqualTo(Path.of("/tmp/d"));
        assertThat(options.workDir()).isEqualTo(Path.of("/tmp/w"));
        assertThat(options.command()).isEqualTo("benchmarks/run --quick --candidate=kafka --docs=/tmp/d --work=/tmp/w --only=transactions");
    }

    @Test
    void rejectsUnknownOptionsBrokersAndEmptyValuesWithTheUsage() {
        assertThatThrownBy(() -> HarnessOptions.parse(new String[] {"--fast"}, BrokerFlavor.TRIBUTARY))
                .hasMessageContaining("--fast").hasMessageContaining("usage:");
        assertThatThrownBy(() -> HarnessOptions.parse(new String[] {"--candidate=redpanda"}, BrokerFlavor.TRIBUTARY))
                .hasMessageContaining("redpanda");
        assertThatThrownBy(() -> HarnessOptions.parse(new String[] {"--docs="}, BrokerFlavor.TRIBUTARY))
                .hasMessageContaining("needs a value");
    }
}

package io.tributary.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.api.SupportedApis;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;

class ApiCompatibilityTableTest {
    @Test
    void theOperationsGuideHoldsTheCurrentTable() throws Exception {
        GeneratedPage.assertCurrent(GeneratedPage.OPERATIONS_GUIDE, ApiCompatibilityTable.SECTION);
    }

    @Test
    void eachRowIsWhatApiVersionsAnswers() {
        String table = ApiCompatibilityTable.render();

        SupportedApis.VersionRange produce = SupportedApis.range(ApiKeys.PRODUCE).orElseThrow();
        assertThat(table).contains("| Produce | 0 | v" + ApiKeys.PRODUCE.oldestVersion() + "–v" + ApiKeys.PRODUCE.latestVersion()
            + " | v" + produce.min() + "–v" + produce.max() + " |");
        assertThat(SupportedApis.range(ApiKeys.PUSH_TELEMETRY)).isEmpty();
        assertThat(table).contains("| PushTelemetry | 72 | v0 | not supported |");
        assertThat(table).contains("| `transaction.version` | 0–2 | 2 |");
        assertThat(table).doesNotContain("| BrokerRegistration |"); // served by KRaft controllers only
    }
}

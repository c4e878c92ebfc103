package io.tributary.hadoop.input;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StartPositionTest {
    /** A topic of three partitions with fixed answers. */
    private static final StartPosition.PartitionOffsets OFFSETS = new StartPosition.PartitionOffsets() {
        @Override
        public Map<Integer, Long> earliest() {
            return Map.of(0, 0L, 1, 10L, 2, 20L);
        }

        @Override
        public Map<Integer, Long> latest() {
            return Map.of(0, 100L, 1, 110L, 2, 120L);
        }

        @Override
        public Map<Integer, Long> committed(String groupId) {
            return groupId.equals("g") ? Map.of(1, 50L) : Map.of();
        }

        @Override
        public Map<Integer, Long> forTimestamp(long timestampMs) {
            return Map.of(0, timestampMs, 1, 110L, 2, 120L);
        }

        @Override
        public Map<Integer, Long> ledger() {
            return Map.of(0, 60L, 9, 5L);
        }
    };

    @Test
    void resolvesEachKind() throws IOException {
        assertThat(resolve("earliest")).isEqualTo(Map.of(0, 0L, 1, 10L, 2, 20L));
        assertThat(resolve("latest")).isEqualTo(Map.of(0, 100L, 1, 110L, 2, 120L));
        assertThat(resolve("ledger")).as("unknown partitions start earliest, vanished ones are ignored")
            .isEqualTo(Map.of(0, 60L, 1, 10L, 2, 20L));
        assertThat(resolve("group:g")).isEqualTo(Map.of(0, 0L, 1, 50L, 2, 20L));
        assertThat(resolve("timestamp:42")).containsEntry(0, 42L);
        assertThat(resolve("timestamp:1970-01-01T00:00:01Z")).containsEntry(0, 1000L);
        assertThat(resolve("offsets: 0=5, 2=7")).isEqualTo(Map.of(0, 5L, 2, 7L));
    }

    @Test
    void badTextIsAClearError() {
        assertThatThrownBy(() -> StartPosition.parse("newest")).hasMessageContaining("unknown start position 'newest'");
        assertThatThrownBy(() -> StartPosition.parse("group:")).hasMessageContaining("needs a value");
        assertThatThrownBy(() -> StartPosition.parse("offsets:0=x")).hasMessageContaining("bad partition offset '0=x'");
        assertThatThrownBy(() -> StartPosition.parse("offsets:0=-1")).hasMessageContaining("bad partition offset");
        assertThatThrownBy(() -> StartPosition.parse("timestamp:yesterday")).hasMessageContaining("bad start timestamp");
    }

    private static Map<Integer, Long> resolve(String text) throws IOException {
        return StartPosition.parse(text).resolve(OFFSETS);
    }
}

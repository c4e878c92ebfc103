package io.tributary.consumer.cli;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordFormatTest {
    private static ConsumerRecord<byte[], byte[]> record(String key, String value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("a", bytes("1"));
        headers.add("b", bytes("x y"));
        return new ConsumerRecord<>("orders", 3, 42L, 1_700_000_000_000L, TimestampType.CREATE_TIME,
                -1, -1, key == null ? null : bytes(key), bytes(value), headers, Optional.empty());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void rendersEveryPlaceholder() {
        RecordFormat format = RecordFormat.parse("{topic}/{partition}@{offset} t={timestamp} {key}={value} [{headers}]");

        assertThat(format.render(record("k", "v")))
                .isEqualTo("orders/3@42 t=1700000000000 k=v [a=1,b=x y]");
    }

    @Test
    void theDefaultIsTheValueAndANullKeyPrintsAsNull() {
        assertThat(RecordFormat.parse(RecordFormat.DEFAULT).render(record(null, "v"))).isEqualTo("v");
        assertThat(RecordFormat.parse("{key}").render(record(null, "v"))).isEqualTo("null");
    }

    @Test
    void understandsEscapes() {
        assertThat(RecordFormat.parse("{key}\\t{value}\\n\\\\\\{x}").render(record("k", "v")))
                .isEqualTo("k\tv\n\\{x}");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{nope}       | unknown placeholder {nope}; known: {headers} {key} {offset} {partition} {timestamp} {topic} {value}",
        "{value       | unclosed '{' at position 0",
        "abc\\        | lone backslash",
        "\\q          | unknown escape \\q",
    })
    void rejectsMalformedTemplates(String template, String message) {
        assertThatThrownBy(() -> RecordFormat.parse(template.trim()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message.trim());
    }
}

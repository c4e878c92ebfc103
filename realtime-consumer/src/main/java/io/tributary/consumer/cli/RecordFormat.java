package io.tributary.consumer.cli;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * The {@code consume --format} template: text with placeholders {@code {key}}, {@code {value}},
 * {@code {topic}}, {@code {partition}}, {@code {offset}}, {@code {timestamp}} (epoch millis) and
 * {@code {headers}} ({@code k=v,k=v}), plus the escapes {@code \t}, {@code \n} and {@code \\}.
 * Keys, values and headers print as UTF-8; a null key or value prints as {@code null}.
 * Parsed once; rendering is a walk over the parts. Immutable.
 */
final class RecordFormat {
    static final String DEFAULT = "{value}";
    private static final Set<String> PLACEHOLDERS =
            Set.of("key", "value", "topic", "partition", "offset", "timestamp", "headers");

    private final List<Function<ConsumerRecord<byte[], byte[]>, String>> parts;

    private RecordFormat(List<Function<ConsumerRecord<byte[], byte[]>, String>> parts) {
        this.parts = parts;
    }

    /** Parses {@code template}; an unknown placeholder or a dangling brace or backslash is an error. */
    static RecordFormat parse(String template) {
        List<Function<ConsumerRecord<byte[], byte[]>, String>> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c == '\\') {
                if (i + 1 == template.length()) {
                    throw new IllegalArgumentException("the format ends with a lone backslash");
                }
                char escaped = template.charAt(++i);
                switch (escaped) {
                    case 't' -> literal.append('\t');
                    case 'n' -> literal.append('\n');
                    case '\\' -> literal.append('\\');
                    case '{' -> literal.append('{');
                    default -> throw new IllegalArgumentException("unknown escape \\" + escaped + " in the format");
                }
            } else if (c == '{') {
                int close = template.indexOf('}', i);
                if (close < 0) {
                    throw new IllegalArgumentException("unclosed '{' at position " + i + " of the format");
                }
                String name = template.substring(i + 1, close);
                if (!PLACEHOLDERS.contains(name)) {
                    throw new IllegalArgumentException("unknown placeholder {" + name + "}; known: "
                            + PLACEHOLDERS.stream().sorted().map(p -> "{" + p + "}").collect(Collectors.joining(" ")));
                }
                if (!literal.isEmpty()) {
                    String text = literal.toString();
                    parts.add(record -> text);
                    literal.setLength(0);
                }
                parts.add(placeholder(name));
                i = close;
            } else {
                literal.append(c);
            }
        }
        if (!literal.isEmpty()) {
            String text = literal.toString();
            parts.add(record -> text);
        }
        return new RecordFormat(List.copyOf(parts));
    }

    String render(ConsumerRecord<byte[], byte[]> record) {
        StringBuilder line = new StringBuilder();
        parts.forEach(part -> line.append(part.apply(record)));
        return line.toString();
    }

    private static Function<ConsumerRecord<byte[], byte[]>, String> placeholder(String name) {
        return switch (name) {
            case "key" -> record -> utf8(record.key());
            case "value" -> record -> utf8(record.value());
            case "topic" -> ConsumerRecord::topic;
            case "partition" -> record -> Integer.toString(record.partition());
            case "offset" -> record -> Long.toString(record.offset());
            case "timestamp" -> record -> Long.toString(record.timestamp());
            case "headers" -> record -> StreamSupport.stream(record.headers().spliterator(), false)
                    .map(RecordFormat::header).collect(Collectors.joining(","));
            default -> throw new IllegalStateException("no placeholder " + name);
        };
    }

    private static String header(Header header) {
        return header.key() + "=" + utf8(header.value());
    }

    private static String utf8(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }
}

package io.tributary.hadoop.shaded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * docs/hadoop.md as its tests read it: its fenced code blocks, and the regions of test code (Java,
 * and the Scala that ShadedJarIT types into spark-shell's interpreter) marked
 * {@code // docs/hadoop.md: <name>} ... {@code // end} that the document must show.
 */
final class HadoopDoc {
    static final Path HOME = Paths.get("").toAbsolutePath().getParent();
    static final Path DOC = HOME.resolve("docs/hadoop.md");
    static final Path TEST_SOURCE = Paths.get("src/test/java/io/tributary/hadoop/shaded/ShadedJarIT.java").toAbsolutePath();
    static final Path SPARK_SHELL_SOURCE = Paths.get("src/test/resources/spark-shell/pageviews.scala").toAbsolutePath();
    private static final String REGION = "// docs/hadoop.md: ";
    private static final String END = "// end";

    private HadoopDoc() {
    }

    /** The document's fenced blocks of one language ({@code java}, {@code scala}, {@code sql}), each with its lines trimmed. */
    static List<String> blocks(String language) throws IOException {
        List<String> blocks = new ArrayList<>();
        StringBuilder block = null;
        for (String line : Files.readAllLines(DOC)) {
            if (block == null && line.equals("```" + language)) {
                block = new StringBuilder();
            } else if (block != null && line.equals("```")) {
                blocks.add(block.toString());
                block = null;
            } else if (block != null) {
                block.append(line.strip()).append('\n');
            }
        }
        return blocks;
    }

    /** The marked regions of a test source, by name, each with its lines trimmed. */
    static Map<String, String> regions(Path source) throws IOException {
        Map<String, String> regions = new LinkedHashMap<>();
        String name = null;
        StringBuilder region = null;
        for (String line : Files.readAllLines(source)) {
            String trimmed = line.strip();
            if (trimmed.startsWith(REGION)) {
                name = trimmed.substring(REGION.length());
                region = new StringBuilder();
            } else if (trimmed.equals(END) && region != null) {
                regions.put(name, region.toString());
                region = null;
            } else if (region != null) {
                region.append(trimmed).append('\n');
            }
        }
        return regions;
    }

    /** The statements of the document's SQL block, with its example location replaced. */
    static List<String> hiveStatements(String lake) throws IOException {
        String sql = blocks("sql").get(0).replace("'hdfs:///data/lake/", "'" + lake + "/");
        List<String> statements = new ArrayList<>();
        for (String statement : sql.split(";\n")) {
            if (!statement.isBlank()) {
                statements.add(statement.strip().replace('\n', ' '));
            }
        }
        return statements;
    }
}

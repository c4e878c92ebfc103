package io.tributary.examples.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Every repository file the examples README and the operations guide tell a reader to use exists. */
class DocumentedPathsTest {
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    // Paths below these folders, as the docs write them; build output (target/) appears only after packaging.
    private static final Pattern PATH = Pattern.compile("(?<![\\w/.-])((?:examples|config|bin|docs)/[\\w./-]*\\w)");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#:]+)(?:#[^)]*)?\\)");
    /** Named in the docs but not part of this repository: ZooKeeper's scripts, and a placeholder. */
    private static final List<String> ELSEWHERE = List.of("bin/zkServer.sh", "bin/zkCli.sh", "examples/cluster/server-N.properties");

    @Test
    void everyPathInTheDocsExists() throws IOException {
        List<String> missing = new ArrayList<>();
        for (String doc : new String[] {"examples/README.md", "docs/operations.md"}) {
            String text = Files.readString(REPO.resolve(doc), StandardCharsets.UTF_8);
            Matcher paths = PATH.matcher(text);
            while (paths.find()) {
                String path = paths.group(1);
                if (!path.contains("/target/") && !ELSEWHERE.contains(path) && !Files.exists(REPO.resolve(path))) {
                    missing.add(doc + ": " + path);
                }
            }
            Matcher links = LINK.matcher(text); // relative markdown links, from the document's folder
            while (links.find()) {
                if (!Files.exists(REPO.resolve(doc).resolveSibling(links.group(1)))) {
                    missing.add(doc + ": link " + links.group(1));
                }
            }
        }
        assertThat(missing).as("paths the docs name that do not exist").isEmpty();
    }
}

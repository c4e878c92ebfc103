package io.tributary.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusPageTest {
    @Test
    void rendersEscapedTablesThatReloadThemselvesWithoutScripts() {
        String html = new StatusPage("broker <1>", 7)
                .section("Topics & partitions")
                .note("as ZooKeeper has it")
                .table("topics", List.of("topic", "lag"), List.of(StatusPage.Row.of("<script>x</script>", "12"),
                        new StatusPage.Row(List.of("late", "3"), true)), List.of("lag"))
                .render(Instant.parse("2026-12-06T00:00:00Z"));

        assertThat(html).startsWith("<!DOCTYPE html>")
                .contains("<meta http-equiv=\"refresh\" content=\"7\">", "<title>broker &lt;1&gt;</title>",
                        "<h2>Topics &amp; partitions</h2>", "<table id=\"topics\">",
                        "<td>&lt;script&gt;x&lt;/script&gt;</td><td class=\"num\">12</td>",
                        "<tr class=\"warn\"><td>late</td>", "2026-12-06T00:00:00Z")
                .doesNotContain("<script", "http://", "https://");
    }
}

package io.tributary.examples;

import io.tributary.examples.pageviews.PageViewPipeline;
import io.tributary.examples.pageviews.PageViewReport;
import io.tributary.examples.serverlogs.ServerLogPipeline;
import io.tributary.examples.serverlogs.ServerLogReport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The quick start's result: what each stage counted, where the files are, and a query to try. */
public record QuickStartSummary(PageViewReport pageViews, ServerLogReport serverLogs, Path warehouse,
                                String bootstrapServers, Duration elapsed) {

    public boolean countsAgree() {
        return pageViews.countsAgree() && serverLogs.countsAgree();
    }

    public List<String> lines() {
        Path cwd = Path.of("").toAbsolutePath();
        String shown = warehouse.startsWith(cwd) ? cwd.relativize(warehouse).toString() : warehouse.toString();
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add("== Summary (" + elapsed.toSeconds() + " s) ==");
        lines.add(String.format("%-12s produced %,d | consumed live %,d | in Parquet by the sink %,d rows in %d files | %s",
            PageViewPipeline.TOPIC, pageViews.produced(), pageViews.consumedLive(), pageViews.parquet().rows(),
            pageViews.parquet().files(), pageViews.countsAgree() ? "all agree" : "COUNTS DISAGREE"));
        lines.add(String.format("%-12s produced %,d | loaded into Parquet by the loader %,d rows in %d files | %s",
            ServerLogPipeline.TOPIC, serverLogs.produced(), serverLogs.parquet().rows(), serverLogs.parquet().files(),
            serverLogs.countsAgree() ? "all agree" : "COUNTS DISAGREE"));
        lines.add("errors per host (MapReduce over the Parquet table): " + serverLogs.errorsComputed().entrySet().stream()
            .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")));
        lines.add("files:  " + shown + "/" + PageViewPipeline.TOPIC + "/dt=*/hr=*/*.parquet  (hdfs-sink)");
        lines.add("        " + shown + "/" + ServerLogPipeline.TOPIC + "/dt=*/hr=*/*.parquet  (loader)");
        lines.add("        " + shown + "/_tributary/ledger/<topic>/v*.ledger  (loaded offsets, shared by both; newest wins)");
        lines.add("try:    duckdb -c \"SELECT url, count(*) AS views FROM read_parquet('" + shown + "/"
            + PageViewPipeline.TOPIC + "/*/*/*.parquet') GROUP BY url ORDER BY views DESC\"");
        lines.add("        duckdb -c \"SELECT host, count(*) AS errors FROM read_parquet('" + shown + "/"
            + ServerLogPipeline.TOPIC + "/*/*/*.parquet') WHERE level = 'ERROR' GROUP BY host ORDER BY host\"");
        return lines;
    }
}

package io.tributary.examples.pageviews;

import io.tributary.examples.ExampleTarget;
import org.apache.kafka.common.utils.Time;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code examples/run page-views}: the page-views pipeline against a running broker (the quick
 * start's with {@code --keep-running}, or {@code bin/tributary-server}).
 */
@Command(name = "page-views", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Streams synthetic page views, counts them per URL live and sinks them into Parquet.")
public final class PageViewsExample implements Callable<Integer> {
    @Mixin
    ExampleTarget target;

    @Option(names = "--seconds", defaultValue = "20", description = "How long to stream (default ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--rate", defaultValue = "500", description = "Page views per second (default ${DEFAULT-VALUE}).")
    int rate;

    public static void main(String[] args) {
        System.exit(new CommandLine(new PageViewsExample()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        PageViewReport report = new PageViewPipeline(new PageViewPipeline.Settings(Duration.ofSeconds(seconds), rate,
            5000, "page-views-live-counts", "page-views-sink"), Time.SYSTEM, System.out::println)
            .run(target.bootstrapServers(), target.warehouse(), target.workDir("schemas"));
        System.out.printf("produced %,d, counted live %,d; the topic holds %,d, the Parquet table %,d rows in %d files%n",
            report.produced(), report.consumedLive(), report.inTopic(), report.parquet().rows(), report.parquet().files());
        System.out.println("views per URL, live:    " + report.liveByUrl());
        System.out.println("views per URL, Parquet: " + report.parquet().countsByColumn());
        return ExampleTarget.verdict(report.parquet(), report.inTopic(), System.out);
    }
}

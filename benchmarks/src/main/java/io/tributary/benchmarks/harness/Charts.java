package io.tributary.benchmarks.harness;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.ToDoubleBiFunction;

/** The run's PNG charts: throughput bars, broker CPU bars and the latency CDF, one series per side. */
public final class Charts {
    public static final String THROUGHPUT = "throughput.png";
    public static final String CPU = "broker-cpu.png";
    public static final String LATENCY_CDF = "latency-cdf.png";

    private static final int WIDTH = 1100;
    private static final int HEIGHT = 560;
    private static final int CDF_POINTS = 400;

    private Charts() {
    }

    public static void write(RunResult result, Path dir) throws IOException {
        Files.createDirectories(dir);
        // MB/s rather than records/s, so that 100 B and 1 KiB workloads share one readable scale.
        save(bars(result, "Throughput, medians over the rounds (higher is better)",
                "MB/s of record values", Charts::megabytesPerSecond,
                kind -> kind == MetricKind.PRODUCE_THROUGHPUT || kind == MetricKind.CONSUME_THROUGHPUT
                        || kind == MetricKind.GROUP_CONSUME_THROUGHPUT), dir.resolve(THROUGHPUT));
        save(bars(result, "Broker CPU per million records, medians over the rounds (lower is better)",
                "CPU-seconds per 1M records", (metric, value) -> value,
                kind -> kind == MetricKind.PRODUCE_CPU || kind == MetricKind.CONSUME_CPU
                        || kind == MetricKind.GROUP_CONSUME_CPU), dir.resolve(CPU));
        save(latencyCdf(result), dir.resolve(LATENCY_CDF));
    }

    private static double megabytesPerSecond(Metric metric, double recordsPerSecond) {
        return recordsPerSecond * metric.recordBytes() / (1024 * 1024);
    }

    private static CategoryChart bars(RunResult result, String title, String yTitle,
                                      ToDoubleBiFunction<Metric, Double> plotted, Predicate<MetricKind> kinds) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title(title).yAxisTitle(yTitle).build();
        style(chart.getStyler());
        chart.getStyler().setXAxisLabelRotation(20);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        List<Comparison> shown = result.comparisons().stream().filter(c -> kinds.test(c.metric().kind())).toList();
        List<String> categories = shown.stream().map(c -> c.metric().label().replace("broker CPU, ", "")).toList();
        for (Side side : Side.values()) {
            List<Double> values = new ArrayList<>();
            for (Comparison c : shown) {
                values.add(plotted.applyAsDouble(c.metric(), side == Side.BASELINE ? c.baselineMedian() : c.candidateMedian()));
            }
            chart.addSeries(result.label(side), categories, values);
        }
        return chart;
    }

    private static XYChart latencyCdf(RunResult result) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title(String.format(Locale.ROOT, "End-to-end latency at %,.0f records/s, %s, all rounds pooled",
                        result.latencyRate(), Harness.LATENCY_SHAPE.name()))
                .xAxisTitle("latency, ms (log scale)").yAxisTitle("% of records at or below").build();
        style(chart.getStyler());
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(0.0).setYAxisMax(100.0);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        for (Side side : Side.values()) {
            List<double[]> cdf = result.latency().get(side).cdfMillis(CDF_POINTS);
            List<Double> millis = cdf.stream().map(point -> point[0]).toList();
            List<Double> percent = cdf.stream().map(point -> 100 * point[1]).toList();
            XYSeries series = chart.addSeries(result.label(side), millis, percent);
            series.setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    private static void style(AxesChartStyler styler) {
        styler.setChartBackgroundColor(java.awt.Color.WHITE);
        styler.setPlotGridLinesVisible(true);
        styler.setChartTitleFont(styler.getChartTitleFont().deriveFont(18f));
    }

    private static void save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path file) throws IOException {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}

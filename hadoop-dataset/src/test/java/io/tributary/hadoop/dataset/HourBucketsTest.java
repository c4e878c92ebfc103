package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class HourBucketsTest {
    @ParameterizedTest
    @ValueSource(strings = {"UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"})
    void agreesWithTheLayoutAcrossDstChanges(String zone) {
        DatasetLayout layout = new DatasetLayout(new Path("/d"), ZoneId.of(zone));
        HourBuckets buckets = new HourBuckets(layout);
        Random random = new Random(42);
        // A walk over a year in steps of up to 20 minutes, forwards and sometimes backwards.
        long ts = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
        for (int i = 0; i < 200_000; i++) {
            ts += random.nextInt(i % 50 == 0 ? 2_400_000 : 1_200_000) - (i % 50 == 0 ? 1_200_000 : 0);
            assertThat(buckets.bucketName(ts)).as("bucket of %s in %s", Instant.ofEpochMilli(ts), zone).isEqualTo(layout.bucketName(ts));
        }
    }
}

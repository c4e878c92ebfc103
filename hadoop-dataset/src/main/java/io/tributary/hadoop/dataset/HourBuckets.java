package io.tributary.hadoop.dataset;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;

/**
 * {@link DatasetLayout#bucketName(long)} for a stream of timestamps, remembering the current
 * bucket's time range so that most records cost two comparisons instead of a date formatting.
 * The range is the local hour around the last new timestamp, cut at zone offset changes (so
 * half-hour DST shifts stay right). Not thread-safe: one per writer.
 */
public final class HourBuckets {
    private static final long HOUR_MS = 3_600_000;

    private final DatasetLayout layout;
    private final ZoneRules rules;
    private long start = Long.MAX_VALUE;
    private long end = Long.MIN_VALUE;
    private String name;

    public HourBuckets(DatasetLayout layout) {
        this.layout = layout;
        this.rules = layout.zone().getRules();
    }

    /** The {@code dt=YYYY-MM-DD/hr=HH} bucket of {@code timestampMs}. */
    public String bucketName(long timestampMs) {
        if (timestampMs >= start && timestampMs < end) {
            return name;
        }
        Instant instant = Instant.ofEpochMilli(timestampMs);
        ZonedDateTime local = instant.atZone(layout.zone());
        long intoHour = local.getMinute() * 60_000L + local.getSecond() * 1_000L + local.getNano() / 1_000_000;
        // Under one offset, the local hour is exactly this real hour; offset changes cut it.
        start = timestampMs - intoHour;
        end = start + HOUR_MS;
        ZoneOffsetTransition previous = rules.previousTransition(instant.plusMillis(1));
        if (previous != null) {
            start = Math.max(start, previous.getInstant().toEpochMilli());
        }
        ZoneOffsetTransition next = rules.nextTransition(instant);
        if (next != null) {
            end = Math.min(end, next.getInstant().toEpochMilli());
        }
        name = layout.bucketName(timestampMs);
        return name;
    }
}

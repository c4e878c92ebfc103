package io.tributary.hadoop.dataset;

/** Offsets {@code [start, end)} of a partition that retention deleted before they were loaded. */
public record LostRange(String topic, int partition, long start, long end) {
    public LostRange {
        if (end <= start) {
            throw new IllegalArgumentException("empty lost range [" + start + ", " + end + ")");
        }
    }

    /** One report line: {@code topic<TAB>partition<TAB>start<TAB>end(exclusive)}. */
    public String reportLine() {
        return topic + '\t' + partition + '\t' + start + '\t' + end;
    }

    /** Parses a {@link #reportLine()}. */
    public static LostRange parse(String line) {
        String[] f = line.split("\t");
        if (f.length != 4) {
            throw new IllegalArgumentException("not a lost-range line: '" + line + "'");
        }
        return new LostRange(f[0], Integer.parseInt(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]));
    }

    @Override
    public String toString() {
        return topic + "-" + partition + " offsets [" + start + ", " + end + ")";
    }
}

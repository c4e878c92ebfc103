package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.LostRange;

import java.io.IOException;

/** Retention deleted offsets the job was asked to load; fails the job unless {@code tributary.on.missing=skip}. */
public final class LostRangeException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient LostRange range;

    public LostRangeException(LostRange range) {
        super("records lost to retention: " + range + " no longer exist on the broker; "
            + "rerun with -D" + InputConfig.ON_MISSING + "=skip to load the rest and report the gap");
        this.range = range;
    }

    public LostRange range() {
        return range;
    }
}

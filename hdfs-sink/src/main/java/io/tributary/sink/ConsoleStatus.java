package io.tributary.sink;

import java.util.Locale;

/** {@code status.console}: when the one-line status is rewritten on stdout. */
public enum ConsoleStatus {
    /** Only when the process runs in a terminal (it has a {@link System#console()}). */
    AUTO,
    ON,
    OFF;

    public static ConsoleStatus parse(String text) {
        return valueOf(text.trim().toUpperCase(Locale.ROOT));
    }

    boolean isOn(boolean interactive) {
        return this == ON || (this == AUTO && interactive);
    }
}

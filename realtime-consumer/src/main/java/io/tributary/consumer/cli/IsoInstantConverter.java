package io.tributary.consumer.cli;

import picocli.CommandLine;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * Reads an ISO-8601 point in time: {@code 2026-11-30T07:30:00Z}, with an offset
 * ({@code 2026-11-30T08:30:00+01:00}), or without a zone (then UTC, also for a bare date).
 */
final class IsoInstantConverter implements CommandLine.ITypeConverter<Instant> {
    @Override
    public Instant convert(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException notWithOffset) {
            try {
                return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException notLocal) {
                try {
                    return LocalDate.parse(text).atStartOfDay().toInstant(ZoneOffset.UTC);
                } catch (DateTimeParseException notADate) {
                    throw new CommandLine.TypeConversionException(
                            "'" + text + "' is not an ISO-8601 date-time such as 2026-11-30T07:30:00Z");
                }
            }
        }
    }
}

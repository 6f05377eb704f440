package dev.petrel.http;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;

/**
 * HTTP dates (RFC 9110 section 5.6.7): IMF-fixdate out; IMF-fixdate, the obsolete RFC 850 form
 * and asctime in, as recipients must accept all three.
 */
public final class HttpDates {
    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    // Locale.US, not ROOT: the root locale has no full day names, so "Sunday" would never parse.
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);
    /** The day name is left out of resolving: it can only be checked once the century is chosen. */
    private static final DateTimeFormatter RFC_850 =
            DateTimeFormatter.ofPattern("EEEE, dd-MMM-yy HH:mm:ss 'GMT'", Locale.US)
                    .withResolverFields(ChronoField.YEAR_OF_ERA, ChronoField.MONTH_OF_YEAR, ChronoField.DAY_OF_MONTH,
                            ChronoField.HOUR_OF_DAY, ChronoField.MINUTE_OF_HOUR, ChronoField.SECOND_OF_MINUTE);
    private static final DateTimeFormatter ASCTIME =
            DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US);

    private HttpDates() {}

    /** {@code epochSecond} as an IMF-fixdate, e.g. {@code Sun, 06 Nov 1994 08:49:37 GMT}: always 29 ASCII bytes. */
    public static String format(long epochSecond) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(epochSecond, 0, ZoneOffset.UTC);
        StringBuilder s = new StringBuilder(29);
        s.append(DAYS[t.getDayOfWeek().getValue() - 1]).append(", ");
        twoDigits(s, t.getDayOfMonth()).append(' ');
        s.append(MONTHS[t.getMonthValue() - 1]).append(' ');
        s.append(t.getYear()).append(' ');
        twoDigits(s, t.getHour()).append(':');
        twoDigits(s, t.getMinute()).append(':');
        twoDigits(s, t.getSecond()).append(" GMT");
        return s.toString();
    }

    /**
     * Parses any of the three HTTP date forms; {@code null} when {@code text} is none of them.
     * {@code now} resolves the two-digit years of the RFC 850 form: one that would lie more than
     * 50 years after {@code now} is taken from the century before (RFC 9110 section 5.6.7). It is
     * a parameter so that the codec reads no clock of its own.
     */
    public static Instant parse(String text, Instant now) {
        if (text == null) return null;
        String trimmed = text.strip();
        for (DateTimeFormatter format : new DateTimeFormatter[] {IMF_FIXDATE, RFC_850, ASCTIME}) {
            try {
                LocalDateTime t = LocalDateTime.parse(trimmed, format);
                if (format == RFC_850) {
                    if (t.getYear() > LocalDateTime.ofInstant(now, ZoneOffset.UTC).getYear() + 50) {
                        t = t.minusYears(100); // RFC 9110: a two-digit year more than 50 years ahead is in the past
                    }
                    if (!RFC_850.format(t).equals(trimmed)) continue; // the day name does not match the date
                }
                return t.toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException notThisForm) {
                // try the next form
            }
        }
        return null;
    }

    private static StringBuilder twoDigits(StringBuilder s, int value) {
        if (value < 10) s.append('0');
        return s.append(value);
    }
}

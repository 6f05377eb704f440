package dev.petrel.http;

import java.nio.charset.StandardCharsets;
import java.time.InstantSource;

/**
 * The current {@code Date} field value, rendered at most once a second. Many threads may share
 * one cache; each second one of them renders the new value and the others read it.
 *
 * <p>The clock is injected, so the codec reads no wall clock of its own and tests can set time.
 */
public final class DateCache {
    private record Rendered(long epochSecond, byte[] bytes) {}

    private final InstantSource clock;
    private volatile Rendered current;

    /** A cache reading {@code clock}. */
    public DateCache(InstantSource clock) {
        this.clock = clock;
        long now = clock.instant().getEpochSecond();
        this.current = render(now);
    }

    /** The date as the 29 ASCII bytes of an IMF-fixdate. The array is shared: do not modify it. */
    public byte[] bytes() {
        long now = Math.floorDiv(clock.millis(), 1000);
        Rendered rendered = current;
        if (rendered.epochSecond != now) {
            rendered = render(now);
            current = rendered; // a race here only renders the same second twice
        }
        return rendered.bytes;
    }

    /** The date as text. */
    public String text() {
        return new String(bytes(), StandardCharsets.US_ASCII);
    }

    private static Rendered render(long epochSecond) {
        return new Rendered(epochSecond, HttpDates.format(epochSecond).getBytes(StandardCharsets.US_ASCII));
    }
}

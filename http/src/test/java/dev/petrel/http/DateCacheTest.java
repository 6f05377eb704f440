package dev.petrel.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

class DateCacheTest {
    /** A clock the test moves by hand. */
    static final class TestClock implements InstantSource {
        private volatile Instant now;
        private int reads;

        TestClock(Instant start) {
            now = start;
        }

        void set(Instant instant) {
            now = instant;
        }

        void advanceMillis(long millis) {
            now = now.plusMillis(millis);
        }

        @Override
        public Instant instant() {
            reads++;
            return now;
        }
    }

    private static final Instant RFC_EXAMPLE = Instant.parse("1994-11-06T08:49:37Z");

    @Test
    void rendersAnImfFixdate() {
        DateCache cache = new DateCache(new TestClock(RFC_EXAMPLE));
        assertThat(cache.text()).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
        assertThat(cache.bytes()).hasSize(29);
    }

    @Test
    void dayHourMinuteAndSecondAreZeroPadded() {
        DateCache cache = new DateCache(new TestClock(Instant.parse("2024-02-01T03:04:05Z")));
        assertThat(cache.text()).isEqualTo("Thu, 01 Feb 2024 03:04:05 GMT");
    }

    @Test
    void sameSecondGivesTheSameArray() {
        TestClock clock = new TestClock(RFC_EXAMPLE);
        DateCache cache = new DateCache(clock);
        byte[] first = cache.bytes();
        clock.advanceMillis(999);
        assertThat(cache.bytes()).isSameAs(first);
        assertThat(cache.bytes()).isSameAs(first);
    }

    @Test
    void theNextSecondGivesANewValue() {
        TestClock clock = new TestClock(RFC_EXAMPLE.plusMillis(999));
        DateCache cache = new DateCache(clock);
        byte[] first = cache.bytes();
        clock.advanceMillis(1);
        byte[] second = cache.bytes();
        assertThat(second).isNotSameAs(first);
        assertThat(cache.text()).isEqualTo("Sun, 06 Nov 1994 08:49:38 GMT");
        assertThat(new String(first, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
        assertThat(cache.bytes()).isSameAs(second);
    }

    @Test
    void followsTheClockAcrossDaysAndBackwards() {
        TestClock clock = new TestClock(Instant.parse("1999-12-31T23:59:59Z"));
        DateCache cache = new DateCache(clock);
        assertThat(cache.text()).isEqualTo("Fri, 31 Dec 1999 23:59:59 GMT");
        clock.advanceMillis(1000);
        assertThat(cache.text()).isEqualTo("Sat, 01 Jan 2000 00:00:00 GMT");
        clock.set(Instant.parse("2000-02-29T12:00:00Z"));
        assertThat(cache.text()).isEqualTo("Tue, 29 Feb 2000 12:00:00 GMT");
        clock.set(RFC_EXAMPLE);
        assertThat(cache.text()).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
    }

    @Test
    void readsTheInjectedClock() {
        TestClock clock = new TestClock(RFC_EXAMPLE);
        DateCache cache = new DateCache(clock);
        int before = clock.reads;
        cache.bytes();
        assertThat(clock.reads).isGreaterThan(before);
    }

    @Test
    void aSecondBeforeTheEpochIsRenderedAsThatSecond() {
        TestClock clock = new TestClock(Instant.ofEpochMilli(-500));
        DateCache cache = new DateCache(clock);
        assertThat(cache.text()).isEqualTo("Wed, 31 Dec 1969 23:59:59 GMT");
        byte[] first = cache.bytes();
        clock.set(Instant.ofEpochMilli(-1));
        assertThat(cache.bytes()).isSameAs(first);
        clock.set(Instant.EPOCH);
        assertThat(cache.text()).isEqualTo("Thu, 01 Jan 1970 00:00:00 GMT");
    }
}

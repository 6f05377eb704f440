package dev.petrel.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpDatesTest {
    /** The reference for two-digit years; fixed, so these tests mean the same in any year. */
    private static final Instant NOW = Instant.parse("2026-11-22T00:00:00Z");

    private static final Instant RFC_EXAMPLE = Instant.parse("1994-11-06T08:49:37Z");

    @Test
    void allThreeFormsOfTheRfcExampleParseToTheSameInstant() {
        // RFC 9110 section 5.6.7
        assertThat(HttpDates.parse("Sun, 06 Nov 1994 08:49:37 GMT", NOW)).isEqualTo(RFC_EXAMPLE);
        // "94" is 1994: 2094 would be more than 50 years after NOW
        assertThat(HttpDates.parse("Sunday, 06-Nov-94 08:49:37 GMT", NOW)).isEqualTo(RFC_EXAMPLE);
        assertThat(HttpDates.parse("Sun Nov  6 08:49:37 1994", NOW)).isEqualTo(RFC_EXAMPLE);
    }

    @Test
    void asctimeWithATwoDigitDay() {
        assertThat(HttpDates.parse("Wed Nov 16 08:49:37 1994", NOW)).isEqualTo(Instant.parse("1994-11-16T08:49:37Z"));
    }

    @Test
    void surroundingWhitespaceIsIgnored() {
        assertThat(HttpDates.parse("  Sun, 06 Nov 1994 08:49:37 GMT\t", NOW)).isEqualTo(RFC_EXAMPLE);
    }

    @Test
    void rfc850YearsNearNowStayInThisCentury() {
        assertThat(HttpDates.parse("Saturday, 01-Jan-00 00:00:00 GMT", NOW)).isEqualTo(Instant.parse("2000-01-01T00:00:00Z"));
        assertThat(HttpDates.parse("Friday, 31-Dec-99 23:59:59 GMT", NOW)).isEqualTo(Instant.parse("1999-12-31T23:59:59Z"));
    }

    @Test
    void formatIsImfFixdate() {
        assertThat(HttpDates.format(RFC_EXAMPLE.getEpochSecond())).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
        assertThat(HttpDates.format(0)).isEqualTo("Thu, 01 Jan 1970 00:00:00 GMT");
        assertThat(HttpDates.format(Instant.parse("2038-01-19T03:14:08Z").getEpochSecond()))
                .isEqualTo("Tue, 19 Jan 2038 03:14:08 GMT");
    }

    @Test
    void formatThenParseRoundTrips() {
        for (long second = -86_400L * 365; second < 4_102_444_800L; second += 7_919_993L) {
            String text = HttpDates.format(second);
            assertThat(text).hasSize(29);
            assertThat(HttpDates.parse(text, NOW)).as(text).isEqualTo(Instant.ofEpochSecond(second));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "   ", "garbage", "Sun, 06 Nov 1994", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT", "sun, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT",
        "Mon, 06 Nov 1994 08:49:37 GMT", "Monday, 06-Nov-94 08:49:37 GMT", "Sun Nov 6 08:49:37 1994",
        "Sun, 06 Nov 1994 08:49:37 GMT x", "1994-11-06T08:49:37Z", "784111777"})
    void garbageIsNull(String text) {
        assertThat(HttpDates.parse(text, NOW)).isNull();
    }

    @Test
    void nullIsNull() {
        assertThat(HttpDates.parse(null, NOW)).isNull();
    }

    @Test
    void resolvesTwoDigitYearsAgainstTheGivenNow() {
        Instant in2050 = Instant.parse("2050-01-01T00:00:00Z");
        Instant in2043 = Instant.parse("2043-01-01T00:00:00Z");
        // 06 Nov 2094 is a Saturday, 06 Nov 1994 a Sunday: the day name must fit the century chosen
        assertThat(HttpDates.parse("Saturday, 06-Nov-94 08:49:37 GMT", in2050)).isEqualTo(Instant.parse("2094-11-06T08:49:37Z"));
        assertThat(HttpDates.parse("Sunday, 06-Nov-94 08:49:37 GMT", in2043)).isEqualTo(Instant.parse("1994-11-06T08:49:37Z"));
        assertThat(HttpDates.parse("Sunday, 06-Nov-94 08:49:37 GMT", in2050)).isNull();
    }
}

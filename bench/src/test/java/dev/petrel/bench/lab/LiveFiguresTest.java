package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The live line says what each tool has told so far, and nothing it has not. */
class LiveFiguresTest {
    private static final long SECOND = 1_000_000_000L;

    /** ab 2.3's output while it runs, as the lab keeps it (standard error and output merged). */
    private static final String AB_SO_FAR = """
            This is ApacheBench, Version 2.3 <$Revision$>
            Copyright 1996 Adam Twiss, Zeus Technology Ltd, http://www.zeustech.net/
            Licensed to The Apache Software Foundation, http://www.apache.org/

            Benchmarking 127.0.0.1 (be patient)
            Completed 10000 requests
            Completed 20000 requests
            """;

    @Test
    void absRateIsItsCountOverTheTimeTheLabFirstSawIt() {
        LiveFigures ab = LiveFigures.ab("HTTP keep-alive", 100_000);

        assertThat(ab.line("Benchmarking 127.0.0.1 (be patient)\n", SECOND / 2))
                .isEqualTo("ab HTTP keep-alive: no tenth done yet, 0.5 s");
        // 20,000 first seen 1.6 s in: 12,500 a second
        assertThat(ab.line(AB_SO_FAR, SECOND * 16 / 10))
                .isEqualTo("ab HTTP keep-alive: 12,500 req/s so far, 20,000 of 100,000, 1.6 s");
        // nothing new written: the rate stays that of the count when it appeared, only the time moves
        assertThat(ab.line(AB_SO_FAR, SECOND * 2))
                .isEqualTo("ab HTTP keep-alive: 12,500 req/s so far, 20,000 of 100,000, 2.0 s");
        assertThat(ab.line(AB_SO_FAR + "Completed 30000 requests\n", SECOND * 2 + SECOND / 2))
                .isEqualTo("ab HTTP keep-alive: 12,000 req/s so far, 30,000 of 100,000, 2.5 s");
    }

    @Test
    void h2loadTellsHowManyUsersStartedNotARate() {
        LiveFigures h2load = LiveFigures.h2load("1000 users", 1000);
        String output = "starting benchmark...\nprogress: 10% of clients started\nprogress: 20% of clients started\n";

        assertThat(h2load.line("starting benchmark...\n", SECOND / 4))
                .isEqualTo("h2load 1000 users: starting, 0.3 s (rate at the end)");
        assertThat(h2load.line(output, SECOND)).isEqualTo("h2load 1000 users: 20% of 1,000 users started, 1.0 s (rate at the end)")
                .doesNotContain("req/s");
    }

    @Test
    void wrkTellsNothingUntilItEndsSoOnlyTheTimeShows() {
        LiveFigures wrk = LiveFigures.wrk("35 KB page", Duration.ofSeconds(15));

        assertThat(wrk.line("Running 15s test @ http://127.0.0.1:18400/page\n", 6 * SECOND))
                .isEqualTo("wrk 35 KB page: 6.0 of 15 s (rate at the end)");
        // past its duration (it is writing its summary): never more than the duration
        assertThat(wrk.line("", 16 * SECOND)).startsWith("wrk 35 KB page: 15.0 of 15 s");
    }

    @Test
    void theFixedRateGeneratorsOwnCountersGiveItsRate() {
        LiveFigures generator = LiveFigures.fixedRate("mod_jk", 24_000);

        assertThat(generator.line("", SECOND)).isEqualTo("fixed-rate mod_jk: waiting for the agreed start");
        String output = FixedRateLoad.progressLine(400, 399, 1000) + "\n" + FixedRateLoad.progressLine(800, 798, 2000) + "\n";
        assertThat(generator.line(output, 4 * SECOND))
                .isEqualTo("fixed-rate mod_jk: 399 req/s so far, 800 of 24,000, 2.0 s");
    }
}

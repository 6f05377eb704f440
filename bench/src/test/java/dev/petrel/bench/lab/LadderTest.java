package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The seed's two figures of a ramp: the highest rate without errors, and the highest with or without. */
class LadderTest {
    @Test
    void theBestLevelWithoutErrorsAndTheBestOverall() {
        List<Ladder.Step> steps = List.of(new Ladder.Step(10, 900, 0), new Ladder.Step(50, 1400, 0),
                new Ladder.Step(100, 1300, 0), new Ladder.Step(200, 1500, 12), new Ladder.Step(400, 700, 300));

        Ladder.Summary summary = Ladder.summarize(steps);

        assertThat(summary.bestWithoutErrors()).isEqualTo(new Ladder.Step(50, 1400, 0));
        assertThat(summary.best()).isEqualTo(new Ladder.Step(200, 1500, 12));
    }

    @Test
    void noLevelWithoutErrorsAndNoLevelAtAll() {
        Ladder.Summary allFailed = Ladder.summarize(List.of(new Ladder.Step(10, 900, 1), new Ladder.Step(50, 800, 5)));
        assertThat(allFailed.bestWithoutErrors()).isNull();
        assertThat(allFailed.best()).isEqualTo(new Ladder.Step(10, 900, 1));

        assertThat(Ladder.summarize(List.of())).isEqualTo(new Ladder.Summary(null, null));
    }

    @Test
    void aTieGoesToTheLevelWithFewerConnections() {
        Ladder.Summary tie = Ladder.summarize(List.of(new Ladder.Step(100, 1000, 0), new Ladder.Step(50, 1000, 0)));
        assertThat(tie.best().connections()).isEqualTo(50);
        assertThat(tie.bestWithoutErrors().connections()).isEqualTo(50);
    }
}

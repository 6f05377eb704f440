package dev.petrel.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.petrel.bench.model.Environment;
import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.Sample;
import dev.petrel.bench.model.ScenarioInfo;
import dev.petrel.bench.model.ScenarioInfo.Layout;
import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.model.ServerInfo.Group;
import dev.petrel.bench.model.Summary;
import dev.petrel.bench.report.Aggregation.Entry;
import dev.petrel.bench.report.Aggregation.ScenarioResult;
import dev.petrel.bench.report.Aggregation.VariantResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AggregationTest {
    private final Aggregation aggregation = Aggregation.of(RunFixture.run(false));

    private static List<String> order(VariantResult v) {
        return v.entries().stream().map(e -> e.server().name()).toList();
    }

    @Test
    void lowerIsBetterPrimaryGivesReferenceOverValueRatios() {
        VariantResult same = aggregation.scenarios().getFirst().variant("same-cpu");
        Entry virtual = same.entry("petrel-virtual");
        assertThat(virtual.summary("rtt")).isEqualTo(new Summary(50, 49, 52, 3));
        // baseline dummy has median 42 µs; best peer is undertow with 61 (jetty 72, tomcat-nio 95)
        assertThat(same.baseline().name()).isEqualTo("dummy");
        assertThat(same.bestPeer().name()).isEqualTo("undertow");
        assertThat(virtual.toBaseline()).isCloseTo(42.0 / 50, within(1e-12)); // 0.84: slower than the baseline
        assertThat(virtual.toBestPeer()).isCloseTo(61.0 / 50, within(1e-12)); // 1.22: faster than the best peer
        assertThat(same.entry("jetty").toBestPeer()).isCloseTo(61.0 / 72, within(1e-12));
        assertThat(same.entry("undertow").bestPeer()).isTrue();
        assertThat(same.entry("undertow").toBestPeer()).isEqualTo(1.0);
        assertThat(same.entry("dummy").toBaseline()).isEqualTo(1.0);
        assertThat(same.entry("jetty").bestPeer()).isFalse();
    }

    @Test
    void serversAreOrderedBaselinePetrelPeersEachBestFirstPerVariant() {
        ScenarioResult latency = aggregation.scenarios().getFirst();
        assertThat(order(latency.variant("same-cpu")))
                .containsExactly("dummy", "petrel-virtual", "petrel-nio", "undertow", "jetty", "tomcat-nio");
        // in cross-cpu petrel-nio (71) beats petrel-virtual (81) and jetty (86) is the best peer
        VariantResult cross = latency.variant("cross-cpu");
        assertThat(order(cross)).containsExactly("dummy", "petrel-nio", "petrel-virtual", "jetty", "undertow", "tomcat-nio");
        assertThat(cross.bestPeer().name()).isEqualTo("jetty");
        assertThat(cross.entry("petrel-nio").toBaseline()).isCloseTo(61.0 / 71, within(1e-12));
        assertThat(cross.entry("petrel-nio").toBestPeer()).isCloseTo(86.0 / 71, within(1e-12));
        assertThat(latency.missing()).extracting(ServerInfo::name).containsExactly("netty");
        assertThat(latency.metrics()).extracting(m -> m.key()).containsExactly("rtt", "rps", "p50", "p99");
    }

    @Test
    void higherIsBetterPrimaryGivesValueOverReferenceAndEvenCountsTakeTheMiddleMean() {
        ScenarioResult ramp = aggregation.scenarios().get(1);
        VariantResult u1 = ramp.variant("1000 users");
        Entry virtual = u1.entry("petrel-virtual");
        assertThat(virtual.summary("rps")).isEqualTo(new Summary(15500, 15000, 16000, 2));
        assertThat(u1.bestPeer().name()).isEqualTo("undertow"); // 13200 > jetty 12250 > tomcat-nio 9250
        assertThat(virtual.toBaseline()).isCloseTo(15500.0 / 21000, within(1e-12));
        assertThat(virtual.toBestPeer()).isCloseTo(15500.0 / 13200, within(1e-12));
        assertThat(virtual.summary("errors")).isEqualTo(new Summary(0.5, 0.5, 0.5, 2));

        // undertow did not run at 3000 users: jetty (13400) is the best peer there, undertow is last
        VariantResult u3 = ramp.variant("3000 users");
        assertThat(u3.bestPeer().name()).isEqualTo("jetty");
        assertThat(u3.entry("undertow").hasResult()).isFalse();
        assertThat(Double.isNaN(u3.entry("undertow").toBaseline())).isTrue();
        assertThat(order(u3).getLast()).isEqualTo("undertow");
        assertThat(ramp.variants()).containsExactly("1000 users", "2000 users", "3000 users");
        assertThat(ramp.servers()).extracting(ServerInfo::name)
                .containsExactly("dummy", "petrel-virtual", "petrel-nio", "jetty", "tomcat-nio", "undertow");
    }

    @Test
    void ratioIsOrientedSoThatAboveOneIsBetter() {
        assertThat(Aggregation.ratio(RunFixture.RPS, 200, 100)).isEqualTo(2.0);
        assertThat(Aggregation.ratio(RunFixture.RTT, 200, 100)).isEqualTo(0.5);
        assertThat(Aggregation.ratio(RunFixture.RTT, 0, 100)).isNaN();
        assertThat(Aggregation.ratio(RunFixture.RPS, 100, 0)).isNaN();
    }

    @Test
    void aTieForBestPeerGoesToThePeerDescribedFirst() {
        RunResults r = new RunResults(environment());
        r.server(new ServerInfo("b", Group.PEER, "", null));
        r.server(new ServerInfo("a", Group.PEER, "", null));
        r.scenario(new ScenarioInfo("s", "000", "S", "", List.of(RunFixture.RPS), List.of("v"), Layout.SERVERS_BY_VARIANT));
        r.add(new Sample("s", "v", "a", 1, "rps", 100));
        r.add(new Sample("s", "v", "b", 1, "rps", 100));
        VariantResult v = Aggregation.of(r).scenarios().getFirst().variant("v");
        assertThat(v.bestPeer().name()).isEqualTo("b");
        assertThat(v.baseline()).isNull();
        assertThat(v.entry("a").toBaseline()).isNaN();
    }

    @Test
    void inconsistenciesBecomeProblemsInsteadOfVanishing() {
        RunResults r = new RunResults(environment());
        r.server(new ServerInfo("p", Group.PETREL, "", null));
        r.scenario(new ScenarioInfo("s", "000", "S", "", List.of(RunFixture.RPS, RunFixture.P99), List.of("a", "b"),
                Layout.SERVERS_BY_VARIANT));
        r.add(new Sample("s", "a", "p", 1, "rps", 10));
        r.add(new Sample("s", "a", "p", 2, "rps", Double.NaN));
        r.add(new Sample("s", "a", "p", 1, "x", 1));
        r.add(new Sample("s", "c", "p", 1, "rps", 12));
        r.add(new Sample("s", "a", "ghost", 1, "rps", 11));
        r.add(new Sample("nope", "a", "p", 1, "rps", 1));
        Aggregation a = Aggregation.of(r);
        ScenarioResult s = a.scenarios().getFirst();
        // p99 and variant b were declared but never measured; c was measured but not declared
        assertThat(s.metrics()).extracting(m -> m.key()).containsExactly("rps");
        assertThat(s.variants()).containsExactly("a", "c");
        assertThat(s.variant("a").entry("p").summary("rps")).isEqualTo(new Summary(10, 10, 10, 1));
        assertThat(s.servers()).extracting(ServerInfo::name).containsExactly("p", "ghost");
        assertThat(s.servers().getLast().group()).isNull();
        assertThat(a.problems()).hasSize(4).anySatisfy(p -> assertThat(p).contains("'x'", "s.csv only"))
                .anySatisfy(p -> assertThat(p).contains("1 non-finite"))
                .anySatisfy(p -> assertThat(p).contains("'ghost'"))
                .anySatisfy(p -> assertThat(p).contains("scenario 'nope'"));
    }

    static Environment environment() {
        return new Environment("2025-06-01T10:00:00Z", "abc", "25", "", "6.8", "cpu", 4, 0, 1, Map.of(), "x", false);
    }
}

package dev.petrel.bench.lab;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.ScenarioInfo;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Seeds 000 and 003 with their own applications: the Spring Boot HelloWorld of
 * {@code examples/spring-boot}, as an executable jar (embedded Tomcat) and as a war in a standalone
 * Tomcat 11 distribution, each once on Tomcat's NIO connector and once on Petrel's
 * ({@code PetrelHttp11Protocol}, per transport), measured with the connectors scenario's columns;
 * and, in the war, seed 000's JSP date page. Its ramp is {@link RampScenario#tomcat}.
 *
 * <p>An executable jar's embedded Tomcat has one port, which {@code server.ssl.*} makes HTTPS
 * only, so the jars' HTTPS columns are not applicable; the war's {@code server.xml} has an HTTP and
 * an HTTPS connector, as the seed's Tomcat had. Spring Boot serves no JSP from an executable jar,
 * so the JSP page is the war's.
 */
final class TomcatScenario implements Scenario {
    /** How the help names what the war runs in: the lab's build unpacks it under bench/target/tomcat-dist. */
    static final String TOMCAT_DISTRIBUTION = "Tomcat distribution";
    static final String JSP_SECTION = "tomcat-jsp";
    private static final String JAR_HAS_ONE_PORT = "an executable jar's embedded Tomcat has one port (HTTPS is measured on the war)";
    private static final String JAR_HAS_NO_JSP = "Spring Boot serves no JSP from an executable jar (the war has the page)";
    private final boolean quick;
    private final LabPaths paths;
    private final ConnectorsScenario columns;

    TomcatScenario(boolean quick, LabPaths paths) {
        this.quick = quick;
        this.paths = paths;
        this.columns = new ConnectorsScenario(quick);
    }

    /** The connectors scenario's: the same columns, measured the same way. */
    private static List<MetricInfo> metrics() {
        return ConnectorsScenario.metrics();
    }

    /** The JSP page's columns: the connectors scenario's over HTTP. */
    private static List<String> httpVariants() {
        return ConnectorsScenario.VARIANTS.stream().filter(v -> !v.https()).map(ConnectorsScenario.Variant::name).toList();
    }

    @Override
    public ScenarioInfo info() {
        ScenarioInfo connectors = columns.info();
        return new ScenarioInfo("tomcat", "000, 003", "Tomcat: a Spring Boot HelloWorld on Tomcat 11, NIO connector against Petrel's",
                "The connectors scenario's columns (" + connectors.method().substring(0, connectors.method().indexOf(" against"))
                        + ") against `GET /` of `examples/spring-boot` (`HelloWorld` from a Spring MVC controller), with "
                        + "the 99th percentile of the time per request (wrk's, or ab's without keep-alive and in the "
                        + "client-bound `ab -k` columns). `boot-jar-*`: the executable jar (`java -jar "
                        + "hello.jar`, embedded Tomcat " + ServerCatalog.embeddedTomcatVersion(paths) + "), Petrel switched "
                        + "off (`--petrel.enabled=false`) or on with `--petrel.transport`; `boot-war-*`: the war as `ROOT.war` "
                        + "in a standalone Tomcat " + ServerCatalog.distributionVersion(paths) + " whose `server.xml` has "
                        + "an HTTP and an HTTPS connector (the lab certificate's PKCS12 in `<SSLHostConfig>`), "
                        + "`protocol=\"HTTP/1.1\"` or `protocol=\"dev.petrel.tomcat.PetrelHttp11Protocol\" transport=...`. "
                        + "Every server is the same application with the same heap flags; only the connector differs. "
                        + JAR_HAS_ONE_PORT.substring(0, 1).toUpperCase() + JAR_HAS_ONE_PORT.substring(1) + ".",
                metrics(), ConnectorsScenario.VARIANTS.stream().map(ConnectorsScenario.Variant::name).toList(),
                ScenarioInfo.Layout.SERVERS_BY_VARIANT, List.of(), ConnectorsScenario.asides());
    }

    private ScenarioInfo jspInfo() {
        return new ScenarioInfo(JSP_SECTION, "000", "Tomcat: seed 000's JSP date page, NIO connector against Petrel's",
                "As above over HTTP, against `GET /date.jsp` of the war (a JSP compiled by the distribution's Jasper "
                        + "that prints `new java.util.Date()`), after its own warm-up. " + JAR_HAS_NO_JSP + ".",
                metrics(), httpVariants(), ScenarioInfo.Layout.SERVERS_BY_VARIANT, List.of(), ConnectorsScenario.asides());
    }

    @Override
    public List<ScenarioInfo> sections() {
        return List.of(info(), jspInfo());
    }

    @Override
    public Set<LoadTool> tools() {
        return Set.of(LoadTool.AB, LoadTool.WRK);
    }

    @Override
    public List<String> needs() {
        return List.of("ab", "wrk", TOMCAT_DISTRIBUTION);
    }


    @Override
    public Duration stepEstimate() {
        // a war's step, the longer: HTTP, HTTPS, and the JSP page's HTTP columns
        return NominalTimes.APPLICATION_START.plus(columns.httpEstimate()).plus(columns.httpsEstimate())
                .plus(columns.httpEstimate());
    }

    @Override
    public String unavailable() {
        if (!Files.isRegularFile(paths.helloJar()) || !Files.isRegularFile(paths.helloWar())) {
            return "examples/spring-boot is not built (./mvnw -B -pl examples/spring-boot -am package)";
        }
        if (paths.tomcatHome() == null) return "no Tomcat distribution under bench/target/tomcat-dist (./mvnw -B -pl bench -am package)";
        return null;
    }

    @Override
    public boolean application() {
        return true;
    }

    @Override
    public boolean https() {
        return true;
    }

    /** The connectors columns over HTTPS; the JSP page's are over HTTP. */
    @Override
    public boolean overTls(String variant) {
        return columns.overTls(variant);
    }

    @Override
    public void measure(Measurement run) throws Exception {
        Duration limit = Duration.ofSeconds(quick ? 30 : 180);
        boolean war = ServerCatalog.isWar(run.server().spec());
        columns.measureHttp(run, limit, "/");
        if (war) {
            columns.measureHttps(run, limit);
        } else {
            for (ConnectorsScenario.Variant v : ConnectorsScenario.VARIANTS) {
                if (v.https()) run.notApplicable(v.name(), JAR_HAS_ONE_PORT);
            }
        }
        Measurement jsp = run.inSection(JSP_SECTION);
        if (war) {
            columns.measureHttp(jsp, limit, "/date.jsp");
        } else {
            for (String variant : httpVariants()) jsp.notApplicable(variant, JAR_HAS_NO_JSP);
        }
    }
}

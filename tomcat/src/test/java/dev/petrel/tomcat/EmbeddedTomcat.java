package dev.petrel.tomcat;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.ErrorPage;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/**
 * An embedded Tomcat for the tests, on a free loopback port, with one webapp (the JSP and HTML
 * pages under {@code src/test/resources/webapp}, copied to a temporary folder) and the servlets
 * and filters a test adds. Its connector is Petrel's ({@link PetrelHttp11Protocol}) on a given
 * transport, or Tomcat's own NIO one for comparison.
 */
final class EmbeddedTomcat implements AutoCloseable {
    private final Tomcat tomcat;
    private final Context context;
    private final Path base;

    private EmbeddedTomcat(Tomcat tomcat, Context context, Path base) {
        this.tomcat = tomcat;
        this.context = context;
        this.base = base;
    }

    /** A Tomcat whose connector is Petrel's on {@code transport}, or Tomcat's NIO when {@code transport} is null. */
    static EmbeddedTomcat create(String transport) throws IOException {
        Connector connector = transport == null ? new Connector("HTTP/1.1") : new Connector(new PetrelHttp11Protocol());
        if (transport != null) connector.setProperty("transport", transport);
        return create(connector);
    }

    /** A Tomcat with {@code connector}, which this sets to a free port on loopback. */
    static EmbeddedTomcat create(Connector connector) throws IOException {
        Path base = Files.createTempDirectory("petrel-tomcat");
        Path docBase = Files.createDirectories(base.resolve("webapp"));
        for (String page : new String[] {"date.jsp", "missing.html"}) {
            try (InputStream in = EmbeddedTomcat.class.getResourceAsStream("/webapp/" + page)) {
                Files.copy(in, docBase.resolve(page));
            }
        }
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        connector.setAsyncTimeout(30_000);
        tomcat.setConnector(connector);
        Context context = tomcat.addWebapp("", docBase.toString());
        ErrorPage notFound = new ErrorPage();
        notFound.setErrorCode(404);
        notFound.setLocation("/missing.html");
        context.addErrorPage(notFound);
        return new EmbeddedTomcat(tomcat, context, base);
    }

    EmbeddedTomcat servlet(String pattern, HttpServlet servlet) {
        String name = "servlet" + pattern.replaceAll("[^A-Za-z0-9]", "_");
        Tomcat.addServlet(context, name, servlet).setAsyncSupported(true);
        context.addServletMappingDecoded(pattern, name);
        return this;
    }

    EmbeddedTomcat filter(String pattern, Filter filter) {
        FilterDef def = new FilterDef();
        def.setFilterName("filter" + pattern.replaceAll("[^A-Za-z0-9]", "_"));
        def.setFilter(filter);
        def.setAsyncSupported("true");
        context.addFilterDef(def);
        FilterMap map = new FilterMap();
        map.setFilterName(def.getFilterName());
        map.addURLPatternDecoded(pattern);
        context.addFilterMap(map);
        return this;
    }

    /** Adds a servlet with multipart config (uploads up to 60 MiB, written to disk past 1 MiB). */
    EmbeddedTomcat multipartServlet(String pattern, HttpServlet servlet) {
        String name = "servlet" + pattern.replaceAll("[^A-Za-z0-9]", "_");
        var wrapper = Tomcat.addServlet(context, name, servlet);
        wrapper.setMultipartConfigElement(new jakarta.servlet.MultipartConfigElement(null, 60L << 20, 61L << 20, 1 << 20));
        context.addServletMappingDecoded(pattern, name);
        return this;
    }

    /** Adds an application listener (a {@code ServletContextListener} class with a public no-argument constructor). */
    EmbeddedTomcat listener(Class<?> listener) {
        context.addApplicationListener(listener.getName());
        return this;
    }

    /** Sets a context init parameter, as a {@code <context-param>} in web.xml. */
    EmbeddedTomcat parameter(String name, String value) {
        context.addParameter(name, value);
        return this;
    }

    EmbeddedTomcat start() {
        try {
            tomcat.start();
        } catch (LifecycleException e) {
            throw new IllegalStateException(e);
        }
        return this;
    }

    /** The web application's folder, which the DefaultServlet serves: files put here before {@link #start()} are served. */
    Path docBase() {
        return base.resolve("webapp");
    }

    int port() {
        return tomcat.getConnector().getLocalPort();
    }

    Connector connector() {
        return tomcat.getConnector();
    }

    @Override
    public void close() {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            throw new IllegalStateException(e);
        } finally {
            try (Stream<Path> files = Files.walk(base)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}

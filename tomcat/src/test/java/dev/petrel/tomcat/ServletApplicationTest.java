package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.Part;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A web application on embedded Tomcat whose connector is Petrel's, on each transport: servlets,
 * a filter, a JSP compiled by Jasper, sessions, error pages, forward and include, Servlet async
 * completed from another thread and timing out, a multipart upload, and 50 MiB each way with
 * checksums. Every answer here comes through Catalina, as it would on Tomcat's own connector; the
 * download also runs on Tomcat's NIO connector ({@code tomcat-nio}), the reference.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ServletApplicationTest {
    private static final Map<String, EmbeddedTomcat> TOMCATS = new ConcurrentHashMap<>();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final int BIG = 50 << 20;

    @AfterAll
    static void stopAll() {
        TOMCATS.values().forEach(EmbeddedTomcat::close);
        TOMCATS.clear();
    }

    private static EmbeddedTomcat tomcat(String transport) {
        return TOMCATS.computeIfAbsent(transport, ServletApplicationTest::startApplication);
    }

    private static EmbeddedTomcat startApplication(String transport) {
        try {
            return EmbeddedTomcat.create(transport.equals("tomcat-nio") ? null : transport)
                    .servlet("/hello", new HttpServlet() {
                        @Override
                        protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
                            res.setContentType("text/plain");
                            res.getWriter().print("Hello from " + req.getMethod() + " " + req.getRequestURI() + "?"
                                    + req.getParameter("name") + " at " + req.getLocalPort() + " from " + req.getRemoteAddr());
                        }
                    })
                    .filter("/hello", (Filter) (req, res, chain) -> {
                        ((HttpServletResponse) res).setHeader("X-Filtered", "yes");
                        chain.doFilter(req, res);
                    })
                    .servlet("/count", new HttpServlet() {
                        @Override
                        protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
                            HttpSession session = req.getSession();
                            Integer n = (Integer) session.getAttribute("n");
                            n = n == null ? 1 : n + 1;
                            session.setAttribute("n", n);
                            res.getWriter().print("visit " + n);
                        }
                    })
                    .servlet("/fail", new HttpServlet() {
                        @Override
                        protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
                            res.sendError(404);
                        }
                    })
                    .servlet("/forward", new HttpServlet() {
                        @Override
                        protected void doGet(HttpServletRequest req, HttpServletResponse res) throws jakarta.servlet.ServletException, IOException {
                            req.getRequestDispatcher("/hello?name=forwarded").forward(req, res);
                        }
                    })
                    .servlet("/include", new HttpServlet() {
                        @Override
                        protected void doGet(HttpServletRequest req, HttpServletResponse res) throws jakarta.servlet.ServletException, IOException {
                            res.setContentType("text/plain");
                            res.getWriter().print("before|");
                            req.getRequestDispatcher("/hello?name=included").include(req, res);
                            res.getWriter().print("|after");
                        }
                    })
                    .servlet("/async", new HttpServlet() {
                        @Override
                        protected void doGet(HttpServletRequest req, HttpServletResponse res) {
                            AsyncContext async = req.startAsync();
                            Thread.ofPlatform().start(() -> {
                                try {
                                    Thread.sleep(100);
                                    async.getResponse().setContentType("text/plain");
                                    async.getResponse().getWriter().print("completed on " + Thread.currentThread().getName());
                                } catch (Exception e) {
                                    throw new IllegalStateException(e);
                                }
                                async.complete();
                            });
                        }
                    })
                    .servlet("/async-timeout", new HttpServlet() {
                        @Override
                        protected void doGet(HttpServletRequest req, HttpServletResponse res) {
                            AsyncContext async = req.startAsync();
                            async.setTimeout(500);
                            async.addListener(new AsyncListener() {
                                @Override
                                public void onTimeout(AsyncEvent event) throws IOException {
                                    HttpServletResponse r = (HttpServletResponse) event.getAsyncContext().getResponse();
                                    r.setStatus(504);
                                    r.getWriter().print("timed out");
                                    event.getAsyncContext().complete();
                                }

                                @Override
                                public void onComplete(AsyncEvent event) {}

                                @Override
                                public void onError(AsyncEvent event) {}

                                @Override
                                public void onStartAsync(AsyncEvent event) {}
                            });
                        }
                    })
                    .servlet("/sha256", new HttpServlet() {
                        @Override
                        protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
                            res.getWriter().print(sha256(req.getInputStream()) + " " + req.getContentLengthLong());
                        }
                    })
                    .servlet("/big", new HttpServlet() {
                        @Override
                        protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
                            res.setContentType("application/octet-stream");
                            if (req.getParameter("length") != null) res.setContentLengthLong(BIG);
                            OutputStream out = res.getOutputStream();
                            byte[] block = pattern(64 * 1024);
                            for (int sent = 0; sent < BIG; sent += block.length) out.write(block);
                        }
                    })
                    .multipartServlet("/upload", new HttpServlet() {
                        @Override
                        protected void doPost(HttpServletRequest req, HttpServletResponse res) throws jakarta.servlet.ServletException, IOException {
                            StringBuilder seen = new StringBuilder();
                            for (Part part : req.getParts()) {
                                try (InputStream in = part.getInputStream()) {
                                    seen.append(part.getName()).append('=').append(part.getSubmittedFileName()).append(':')
                                        .append(part.getSize()).append(':').append(sha256(in)).append(';');
                                }
                            }
                            res.getWriter().print(seen);
                        }
                    })
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] pattern(int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) b[i] = (byte) (i * 31 + (i >>> 8));
        return b;
    }

    static String sha256(InputStream in) throws IOException {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[65536];
            for (int n; (n = in.read(buffer)) > 0; ) digest.update(buffer, 0, n);
            return HexFormat.of().formatHex(digest.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256(byte[] bytes) throws IOException {
        return sha256(new java.io.ByteArrayInputStream(bytes));
    }

    private static HttpResponse<String> get(String transport, String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(transport, path)).timeout(Duration.ofSeconds(30));
        if (headers.length > 0) request.headers(headers);
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(String transport, String path) {
        return URI.create("http://127.0.0.1:" + tomcat(transport).port() + path);
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void servletAndFilter(String transport) throws Exception {
        HttpResponse<String> response = get(transport, "/hello?name=petrel");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("Hello from GET /hello?petrel at " + tomcat(transport).port() + " from 127.0.0.1");
        assertThat(response.headers().firstValue("X-Filtered")).hasValue("yes");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain;charset=ISO-8859-1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void jspCompiledByJasper(String transport) throws Exception {
        HttpResponse<String> response = get(transport, "/date.jsp");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("Today is 2026-11-24, via http on port " + tomcat(transport).port())
                .contains("Session new");
        assertThat(response.headers().firstValue("Set-Cookie")).hasValueSatisfying(c -> assertThat(c).startsWith("JSESSIONID="));
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void sessionAcrossRequests(String transport) throws Exception {
        HttpResponse<String> first = get(transport, "/count");
        String cookie = first.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
        assertThat(first.body()).isEqualTo("visit 1");
        assertThat(get(transport, "/count", "Cookie", cookie).body()).isEqualTo("visit 2");
        assertThat(get(transport, "/count", "Cookie", cookie).body()).isEqualTo("visit 3");
        assertThat(get(transport, "/count").body()).as("another client, another session").isEqualTo("visit 1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void sendErrorShowsTheErrorPage(String transport) throws Exception {
        HttpResponse<String> response = get(transport, "/fail");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("Custom not-found page");
        assertThat(get(transport, "/no/such/page").body()).contains("Custom not-found page");
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void forwardAndInclude(String transport) throws Exception {
        assertThat(get(transport, "/forward").body()).startsWith("Hello from GET /hello?forwarded");
        assertThat(get(transport, "/include").body()).matches("before\\|Hello from GET /include\\?included at \\d+ from 127.0.0.1\\|after");
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void asyncCompletedFromAnotherThread(String transport) throws Exception {
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> response = get(transport, "/async");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).startsWith("completed on Thread-");
        }
        assertThat(get(transport, "/hello?name=after").body()).as("the connection and processor serve on").contains("after");
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void asyncTimeout(String transport) throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> response = get(transport, "/async-timeout");
        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(response.body()).isEqualTo("timed out");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(500));
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void bigUploadWithChecksum(String transport) throws Exception {
        byte[] body = pattern(BIG);
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(uri(transport, "/sha256"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(sha256(body) + " " + BIG);
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio", "tomcat-nio"})
    void bigDownloadWithChecksum(String transport) throws Exception {
        String expected = sha256(pattern(BIG)); // the block repeats: the same bytes as 800 writes of 64 KiB
        for (String path : new String[] {"/big", "/big?length"}) {
            HttpResponse<InputStream> response = CLIENT.send(HttpRequest.newBuilder(uri(transport, path)).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertThat(response.statusCode()).isEqualTo(200);
            byte[] got;
            try (InputStream in = response.body()) {
                got = in.readAllBytes();
            }
            int firstDiff = java.util.Arrays.mismatch(got, pattern(BIG));
            assertThat(firstDiff).as(path + " first difference of " + got.length).isEqualTo(-1);
            assertThat(sha256(got)).as(path).isEqualTo(expected);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void pausedConnectorTurnsNewRequestsAway(String transport) throws Exception {
        try (EmbeddedTomcat tomcat = EmbeddedTomcat.create(transport).servlet("/hello", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
                res.getWriter().print("hello");
            }
        }).start()) {
            URI hello = URI.create("http://127.0.0.1:" + tomcat.port() + "/hello");
            tomcat.connector().pause(); // what Spring Boot's graceful shutdown does first
            HttpResponse<String> paused = CLIENT.send(HttpRequest.newBuilder(hello).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(paused.statusCode()).isEqualTo(503);
            assertThat(paused.headers().firstValue("Connection")).hasValue("close");
            tomcat.connector().resume();
            assertThat(CLIENT.send(HttpRequest.newBuilder(hello).build(), HttpResponse.BodyHandlers.ofString()).body()).isEqualTo("hello");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void multipartUpload(String transport) throws Exception {
        byte[] file = pattern(3 << 20);
        String boundary = "petrel-boundary-1234";
        var out = new java.io.ByteArrayOutputStream();
        out.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhello\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"data.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(file);
        out.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(uri(transport, "/upload"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(out.toByteArray())).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("title=null:5:" + sha256("hello".getBytes(StandardCharsets.US_ASCII))
                + ";file=data.bin:" + file.length + ":" + sha256(file) + ";");
    }
}

package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Handler;
import dev.petrel.server.Router;
import dev.petrel.server.Server;

/**
 * Decoded query parameters, form bodies and cookies as a handler reads them, over a real
 * connection: UTF-8 escapes and {@code +}, repeated names, names without values, several
 * {@code Cookie} lines, quoted cookie values; a malformed escape is the client's 400.
 */
class RequestParametersTest {
    private static Handler app() {
        return Router.builder()
                .get("/query", (request, response) -> response.send(request.queryParameters() + " name=" + request.queryParameter("name")
                        + " missing=" + request.queryParameter("missing")))
                .post("/form", (request, response) -> response.send(request.formParameters().toString()))
                .get("/cookies", (request, response) -> response.send(request.cookies() + " session=" + request.cookie("session")))
                .build();
    }

    private static String answer(Server server, String request) throws Exception {
        try (RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(request).read();
            return response.status() + " " + response.text();
        }
    }

    @PlainHttpTransportTest
    void queryParametersAreDecoded(Transport transport) throws Exception {
        try (Server server = TestServers.start(transport, transport.handler(app()))) {
            assertThat(answer(server, Requests.get("/query?name=Ada%20Lovelace&tag=a&tag=b+c&flag&caf%C3%A9=%E2%82%AC")))
                    .isEqualTo("200 {name=[Ada Lovelace], tag=[a, b c], flag=[], café=[€]} name=Ada Lovelace missing=null");
            assertThat(answer(server, Requests.get("/query"))).isEqualTo("200 {} name=null missing=null");
            assertThat(answer(server, Requests.get("/query?name=%E2%82"))).startsWith("200 {name=["); // a cut UTF-8 sequence: replaced, not refused
            assertThat(answer(server, Requests.get("/query?name=%zz"))).startsWith("400 ");
        }
    }

    @PlainHttpTransportTest
    void formBodiesAreDecodedOnlyWhenTheyAreForms(Transport transport) throws Exception {
        try (Server server = TestServers.start(transport, transport.handler(app()))) {
            String body = "user=ada&note=1+%2B+1%3D2";
            assertThat(answer(server, "POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded; charset=UTF-8\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body)).isEqualTo("200 {user=[ada], note=[1 + 1=2]}");
            assertThat(answer(server, "POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 2\r\n\r\n{}")).isEqualTo("200 {}");
        }
    }

    @PlainHttpTransportTest
    void cookiesFromEveryCookieLine(Transport transport) throws Exception {
        try (Server server = TestServers.start(transport, transport.handler(app()))) {
            assertThat(answer(server, "GET /cookies HTTP/1.1\r\nHost: x\r\nCookie: session=abc123; theme=\"dark\"\r\n"
                    + "Cookie: lang=en; session=older; broken\r\n\r\n"))
                    .isEqualTo("200 {session=abc123, theme=dark, lang=en} session=abc123");
            assertThat(answer(server, Requests.get("/cookies"))).isEqualTo("200 {} session=null");
        }
    }
}

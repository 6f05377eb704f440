package dev.petrel.bench.servers;

import dev.petrel.server.AjpConfig;
import dev.petrel.server.Handler;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.TlsConfig;
import dev.petrel.server.TransportKind;

/**
 * Petrel's own server and router on the transport named on the command line; with a third
 * argument {@code inline}, the handlers are marked non-blocking, which the {@code nio} transport
 * runs on its event loops instead of on virtual threads. HTTPS, when the lab asks for it, is
 * {@code Server.Builder.https} with the lab's PEM files and {@link TlsConfig}'s defaults. AJP, when
 * the lab asks for it ({@link LabAjp}), is {@code Server.Builder.ajp} on the same transport and
 * handler with {@code AjpConfig.withSecret} and its defaults otherwise (127.0.0.1, 8 KiB packets,
 * no idle timeout).
 */
public final class PetrelHello {
    private PetrelHello() {}

    public static void main(String[] args) throws Exception {
        String usage = "PetrelHello PORT TRANSPORT (" + TransportKind.names() + ") [inline]";
        int port = Hello.port(args, usage);
        if (args.length < 2) {
            System.err.println("usage: " + usage);
            System.exit(2);
        }
        TransportKind transport = TransportKind.fromCliName(args[1]);
        boolean inline = args.length > 2 && args[2].equals("inline");
        Hello.quietLogging();
        byte[] page = Hello.page();
        Handler pageHandler = (request, response) -> response.contentType(Hello.HTML_TYPE).send(page);
        Handler hello = (request, response) -> response.contentType(Hello.TEXT_TYPE).send(Hello.HELLO);
        Router router = Router.builder()
                .route("*", Hello.PAGE_PATH, pageHandler)
                .fallback(hello)
                .build();
        LabTls tls = LabTls.fromSystemProperty(port);
        Server.Builder server = Server.builder()
                .host(Hello.HOST)
                .port(port)
                .transport(transport)
                .handler(inline ? Handler.nonBlocking(router) : router);
        if (tls != null) server.https(tls.port(), TlsConfig.pem(tls.certificatePem(), tls.privateKeyPem()));
        int ajpPort = LabAjp.portFromSystemProperty();
        if (ajpPort > 0) server.ajp(ajpPort, AjpConfig.withSecret(LabAjp.SECRET));
        server.start();
        Hello.runUntilTerminated("petrel-" + transport.cliName() + (inline ? "-inline" : ""), port, tls, ajpPort);
    }
}

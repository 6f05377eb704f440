package dev.petrel.bench.servers;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http2.CleartextHttp2ServerUpgradeHandler;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import java.util.HashMap;
import java.util.Map;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

/**
 * Netty 4.2: HttpServerCodec and a handler that answers each request head with a
 * FullHttpResponse, as Netty's own HttpHelloWorldServer example does. Modes: {@code epoll}
 * and {@code io_uring} (native transports) and {@code nio}. One event-loop group with its default
 * size; Netty adds no Date header. io_uring is checked first ({@link IoUring#isAvailable()}): where
 * the kernel or a seccomp filter refuses it, the server says why in one line and exits with
 * {@link LabUnavailable#EXIT}, which the lab reports as not applicable on this machine.
 *
 * <p>HTTPS, when the lab asks for it, is a second channel on the same event loops with an
 * {@code SslHandler} first in the pipeline, from {@link SslContextBuilder#forServer} with the lab's
 * PEM files and the TLS provider named by the third argument: {@code jdk} (JSSE) or {@code openssl}
 * (BoringSSL: netty-tcnative-boringssl-static, which the lab ships). The provider is always named:
 * Netty's default is OpenSSL whenever tcnative's native library is on the class path, and the lab
 * has it there for Petrel's native engine, so leaving it to Netty would have moved netty-epoll and
 * netty-nio from JSSE to BoringSSL without a word. {@code openssl} without a loadable library stops
 * the start with the reason, rather than falling back to the JDK.
 *
 * <p>HTTP/2, when the lab asks for it ({@link LabH2}), as Netty's own HTTP/2 hello-world example sets
 * it up: {@link Http2FrameCodecBuilder#forServer()} and a handler that answers each request's
 * {@link Http2HeadersFrame} (at the end of its stream) with a headers frame and a data frame, the same
 * status, content type, length and body. On the HTTP channel a {@link CleartextHttp2ServerUpgradeHandler}
 * comes first: prior knowledge (the connection preface) and the {@code Upgrade: h2c} handshake
 * ({@link Http2ServerUpgradeCodec}) go to HTTP/2, anything else to the HTTP/1.1 pipeline above. On the
 * HTTPS channel the SslContext offers {@code h2} and {@code http/1.1} by ALPN, and an
 * {@link ApplicationProtocolNegotiationHandler} builds the pipeline of the protocol chosen.
 *
 * <p>The WebSocket echo, when the lab asks for it ({@link LabWebSocket}), on the HTTP channel, as
 * Netty's own WebSocket server example sets it up (less its compression handler): after the
 * {@link HttpServerCodec} an {@link HttpObjectAggregator} (the handshake handler wants whole
 * requests), a {@link WebSocketServerProtocolHandler} for {@value LabWebSocket#PATH} alone (it
 * answers the handshake, pings and the close, and passes every other request on to the HelloWorld
 * handler), a {@link WebSocketFrameAggregator} that joins fragments into whole messages, and a
 * handler that writes each message back as it came, flushing when a read is done as the HelloWorld
 * handler does. Frames and messages up to 1 MiB (Netty's default frame limit is 64 KiB); extensions
 * not allowed, so none is negotiated.
 */
public final class NettyHello {
    private NettyHello() {}

    public static void main(String[] args) throws Exception {
        String usage = "NettyHello PORT MODE (epoll, io_uring, nio) TLS_PROVIDER (jdk, openssl)";
        int port = Hello.port(args, usage);
        String mode = Hello.mode(args, usage, "epoll", "io_uring", "nio");
        SslProvider provider = provider(args, usage);
        Hello.quietLogging();
        byte[] page = Hello.page();

        if (mode.equals("io_uring") && !IoUring.isAvailable()) {
            Throwable cause = IoUring.unavailabilityCause();
            Hello.unavailable("io_uring: " + (cause == null ? "not available" : oneLine(cause)));
        }
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(switch (mode) {
            case "epoll" -> EpollIoHandler.newFactory();
            case "io_uring" -> IoUringIoHandler.newFactory();
            default -> NioIoHandler.newFactory();
        });
        Class<? extends ServerChannel> channel = switch (mode) {
            case "epoll" -> EpollServerSocketChannel.class;
            case "io_uring" -> IoUringServerSocketChannel.class;
            default -> NioServerSocketChannel.class;
        };
        boolean h2 = LabH2.fromSystemProperty();
        bind(group, channel, port, null, page, h2, LabWebSocket.fromSystemProperty());
        LabTls tls = LabTls.fromSystemProperty(port);
        if (tls != null) {
            if (provider == SslProvider.OPENSSL && !OpenSsl.isAvailable()) {
                throw new IllegalStateException("TLS provider openssl: netty-tcnative cannot be loaded", OpenSsl.unavailabilityCause());
            }
            SslContextBuilder builder = SslContextBuilder.forServer(tls.certificatePem().toFile(), tls.privateKeyPem().toFile())
                    .sslProvider(provider);
            if (h2) {
                builder.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1));
            }
            bind(group, channel, tls.port(), builder.build(), page, h2, false);
        }
        String name = "netty-" + mode + (provider == SslProvider.OPENSSL ? " (TLS: " + OpenSsl.versionString() + ")" : "");
        Hello.runUntilTerminated(name, port, tls);
    }

    /** A failure and its causes on one line: the innermost says most (e.g. the kernel's errno). */
    private static String oneLine(Throwable failure) {
        StringBuilder line = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (!line.isEmpty()) line.append("; ");
            line.append(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage().replaceAll("\\s+", " "));
        }
        return line.toString();
    }

    /** The TLS provider the third argument names; exits with usage when it is missing or unknown. */
    private static SslProvider provider(String[] args, String usage) {
        String name = args.length > 2 ? args[2] : "";
        return switch (name) {
            case "jdk" -> SslProvider.JDK;
            case "openssl" -> SslProvider.OPENSSL;
            default -> {
                System.err.println("usage: " + usage);
                System.exit(2);
                yield null; // not reached
            }
        };
    }

    /**
     * Listens on {@code port}, over TLS when {@code ssl} is not {@code null}; with {@code h2}, HTTP/2 too
     * (by ALPN over TLS, else with prior knowledge or the h2c upgrade); with {@code webSocket} (over
     * HTTP/1.1 alone), the WebSocket echo too.
     */
    private static void bind(EventLoopGroup group, Class<? extends ServerChannel> channel, int port, SslContext ssl,
                             byte[] page, boolean h2, boolean webSocket) throws InterruptedException {
        new ServerBootstrap()
                .group(group)
                .channel(channel)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (ssl != null) ch.pipeline().addLast(ssl.newHandler(ch.alloc()));
                        if (!h2 && webSocket) {
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(65_536),
                                    new WebSocketServerProtocolHandler(ECHO_CONFIG),
                                    new WebSocketFrameAggregator(LabWebSocket.MAX_MESSAGE_BYTES),
                                    new EchoHandler(), new HelloHandler(page));
                        } else if (!h2) {
                            ch.pipeline().addLast(new HttpServerCodec(), new HelloHandler(page));
                        } else if (ssl != null) {
                            ch.pipeline().addLast(new ApplicationProtocolNegotiationHandler(ApplicationProtocolNames.HTTP_1_1) {
                                @Override
                                protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
                                    if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
                                        ctx.pipeline().addLast(Http2FrameCodecBuilder.forServer().build(), new Http2HelloHandler(page));
                                    } else {
                                        ctx.pipeline().addLast(new HttpServerCodec(), new HelloHandler(page));
                                    }
                                }
                            });
                        } else {
                            HttpServerCodec codec = new HttpServerCodec();
                            HttpServerUpgradeHandler upgrade = new HttpServerUpgradeHandler(codec, protocol ->
                                    AsciiString.contentEquals(Http2CodecUtil.HTTP_UPGRADE_PROTOCOL_NAME, protocol)
                                            ? new Http2ServerUpgradeCodec(Http2FrameCodecBuilder.forServer().build(), new Http2HelloHandler(page))
                                            : null);
                            // in the place of the HTTP/1.1 handlers, as soon as the preface is seen
                            ChannelHandler priorKnowledge = new ChannelHandlerAdapter() {
                                @Override
                                public void handlerAdded(ChannelHandlerContext ctx) {
                                    ChannelPipeline pipeline = ctx.pipeline();
                                    pipeline.addAfter(ctx.name(), null, new Http2HelloHandler(page));
                                    pipeline.addAfter(ctx.name(), null, Http2FrameCodecBuilder.forServer().build());
                                    pipeline.remove(HelloHandler.class);
                                    pipeline.remove(this);
                                }
                            };
                            ch.pipeline().addLast(new CleartextHttp2ServerUpgradeHandler(codec, upgrade, priorKnowledge),
                                    new HelloHandler(page));
                        }
                    }
                })
                .bind(Hello.HOST, port)
                .sync();
    }

    /** The echo's handshake: its path alone, 1 MiB frames, no extensions; Netty's defaults otherwise. */
    private static final WebSocketServerProtocolConfig ECHO_CONFIG = WebSocketServerProtocolConfig.newBuilder()
            .websocketPath(LabWebSocket.PATH)
            .checkStartsWith(false)
            .maxFramePayloadLength(LabWebSocket.MAX_MESSAGE_BYTES)
            .allowExtensions(false)
            .build();

    /**
     * Writes every whole message back (a text or binary frame, joined by the aggregator before it),
     * the same frame object retained: the encoder after the handshake sends it unmasked.
     */
    private static final class EchoHandler extends SimpleChannelInboundHandler<WebSocketFrame> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
            ctx.write(frame.retain());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
            ctx.fireChannelReadComplete();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** Answers on the request head; the request's content parts, if any, are dropped. */
    private static final class HelloHandler extends SimpleChannelInboundHandler<HttpObject> {
        private final byte[] page;

        HelloHandler(byte[] page) {
            this.page = page;
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (!(msg instanceof HttpRequest request)) return;
            boolean isPage = Hello.PAGE_PATH.equals(new QueryStringDecoder(request.uri()).path());
            byte[] body = isPage ? page : Hello.HELLO;
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK,
                    Unpooled.wrappedBuffer(body));
            response.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, isPage ? Hello.HTML_TYPE : Hello.TEXT_TYPE)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            HttpUtil.setKeepAlive(response, keepAlive);
            if (keepAlive) {
                ctx.write(response);
            } else {
                ctx.write(response).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /**
     * The HTTP/2 answer, behind an {@code Http2FrameCodec}: each request answered at the end of its
     * stream (its headers frame, or its last data frame), with the same head and body as over HTTP/1.1.
     * Request bodies, if any, are dropped, their bytes given back to the flow-control window.
     */
    private static final class Http2HelloHandler extends ChannelInboundHandlerAdapter {
        private final byte[] page;
        /** Requests whose body is still coming, by stream id: whether each asked for the page. */
        private final Map<Integer, Boolean> pending = new HashMap<>();

        Http2HelloHandler(byte[] page) {
            this.page = page;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame headers) {
                CharSequence path = headers.headers().path();
                boolean isPage = path != null && Hello.PAGE_PATH.equals(new QueryStringDecoder(path.toString()).path());
                if (headers.isEndStream()) {
                    answer(ctx, headers.stream(), isPage);
                } else {
                    pending.put(headers.stream().id(), isPage);
                }
            } else if (msg instanceof Http2DataFrame data) {
                Http2FrameStream stream = data.stream();
                int bytes = data.initialFlowControlledBytes();
                boolean end = data.isEndStream();
                data.release();
                if (bytes > 0) ctx.write(new DefaultHttp2WindowUpdateFrame(bytes).stream(stream));
                if (end) answer(ctx, stream, Boolean.TRUE.equals(pending.remove(stream.id())));
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        private void answer(ChannelHandlerContext ctx, Http2FrameStream stream, boolean isPage) {
            byte[] body = isPage ? page : Hello.HELLO;
            Http2Headers headers = new DefaultHttp2Headers().status("200")
                    .set(HttpHeaderNames.CONTENT_TYPE, isPage ? Hello.HTML_TYPE : Hello.TEXT_TYPE)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            ctx.write(new DefaultHttp2HeadersFrame(headers).stream(stream));
            ctx.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(body), true).stream(stream));
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}

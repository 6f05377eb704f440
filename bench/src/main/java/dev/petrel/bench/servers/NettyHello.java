package dev.petrel.bench.servers;

import io.netty.bootstrap.ServerBootstrap;
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
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

/**
 * Netty 4.2: HttpServerCodec and a handler that answers each request head with a
 * FullHttpResponse, as Netty's own HttpHelloWorldServer example does. Modes: {@code epoll}
 * (native transport) and {@code nio}. One event-loop group with its default size; Netty adds no
 * Date header.
 *
 * <p>HTTPS, when the lab asks for it, is a second channel on the same event loops with an
 * {@code SslHandler} first in the pipeline, from {@link SslContextBuilder#forServer} with the lab's
 * PEM files and the TLS provider named by the third argument: {@code jdk} (JSSE) or {@code openssl}
 * (BoringSSL: netty-tcnative-boringssl-static, which the lab ships). The provider is always named:
 * Netty's default is OpenSSL whenever tcnative's native library is on the class path, and the lab
 * has it there for Petrel's native engine, so leaving it to Netty would have moved netty-epoll and
 * netty-nio from JSSE to BoringSSL without a word. {@code openssl} without a loadable library stops
 * the start with the reason, rather than falling back to the JDK.
 */
public final class NettyHello {
    private NettyHello() {}

    public static void main(String[] args) throws Exception {
        String usage = "NettyHello PORT MODE (epoll, nio) TLS_PROVIDER (jdk, openssl)";
        int port = Hello.port(args, usage);
        String mode = Hello.mode(args, usage, "epoll", "nio");
        SslProvider provider = provider(args, usage);
        Hello.quietLogging();
        byte[] page = Hello.page();

        boolean epoll = mode.equals("epoll");
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        Class<? extends ServerChannel> channel = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        bind(group, channel, port, null, page);
        LabTls tls = LabTls.fromSystemProperty(port);
        if (tls != null) {
            if (provider == SslProvider.OPENSSL && !OpenSsl.isAvailable()) {
                throw new IllegalStateException("TLS provider openssl: netty-tcnative cannot be loaded", OpenSsl.unavailabilityCause());
            }
            SslContext ssl = SslContextBuilder.forServer(tls.certificatePem().toFile(), tls.privateKeyPem().toFile())
                    .sslProvider(provider).build();
            bind(group, channel, tls.port(), ssl, page);
        }
        String name = "netty-" + mode + (provider == SslProvider.OPENSSL ? " (TLS: " + OpenSsl.versionString() + ")" : "");
        Hello.runUntilTerminated(name, port, tls);
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

    /** Listens on {@code port}, over TLS when {@code ssl} is not {@code null}. */
    private static void bind(EventLoopGroup group, Class<? extends ServerChannel> channel, int port, SslContext ssl,
                             byte[] page) throws InterruptedException {
        new ServerBootstrap()
                .group(group)
                .channel(channel)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (ssl != null) ch.pipeline().addLast(ssl.newHandler(ch.alloc()));
                        ch.pipeline().addLast(new HttpServerCodec(), new HelloHandler(page));
                    }
                })
                .bind(Hello.HOST, port)
                .sync();
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
}

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
import io.netty.handler.ssl.SslContextBuilder;

/**
 * Netty 4.2: HttpServerCodec and a handler that answers each request head with a
 * FullHttpResponse, as Netty's own HttpHelloWorldServer example does. Modes: {@code epoll}
 * (native transport) and {@code nio}. One event-loop group with its default size; Netty adds no
 * Date header.
 *
 * <p>HTTPS, when the lab asks for it, is a second channel on the same event loops with an
 * {@code SslHandler} first in the pipeline, from {@link SslContextBuilder#forServer} with the lab's
 * PEM files. Netty's default provider is OpenSSL when netty-tcnative is on the class path and the
 * JDK's otherwise; the lab ships only tcnative's classes, not its native library, so this is JSSE.
 */
public final class NettyHello {
    private NettyHello() {}

    public static void main(String[] args) throws Exception {
        String usage = "NettyHello PORT MODE (epoll, nio)";
        int port = Hello.port(args, usage);
        String mode = Hello.mode(args, usage, "epoll", "nio");
        Hello.quietLogging();
        byte[] page = Hello.page();

        boolean epoll = mode.equals("epoll");
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        Class<? extends ServerChannel> channel = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        bind(group, channel, port, null, page);
        LabTls tls = LabTls.fromSystemProperty(port);
        if (tls != null) {
            SslContext ssl = SslContextBuilder.forServer(tls.certificatePem().toFile(), tls.privateKeyPem().toFile()).build();
            bind(group, channel, tls.port(), ssl, page);
        }
        Hello.runUntilTerminated("netty-" + mode, port, tls);
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

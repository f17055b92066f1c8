package org.cloudtalk.server.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.EventExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** The tenant API's listening socket: one acceptor thread and a small pool of I/O threads. */
public final class HttpApiServer implements AutoCloseable {
    private final EventLoopGroup boss;
    private final EventLoopGroup io;
    private final Channel channel;

    private HttpApiServer(EventLoopGroup boss, EventLoopGroup io, Channel channel) {
        this.boss = boss;
        this.io = io;
        this.channel = channel;
    }

    /** Binds the listening socket and accepts connections at once; see {@link #bind}. */
    public static HttpApiServer start(InetSocketAddress bind, ApiChannelInitializer initializer, int ioThreads)
            throws InterruptedException, IOException {
        HttpApiServer server = bind(bind, initializer, ioThreads);
        server.startAccepting();
        return server;
    }

    /**
     * Binds the listening socket without accepting connections yet: they wait in the backlog until
     * {@link #startAccepting}.
     *
     * @throws java.net.BindException when the address is taken or not local (the event loops are stopped, so the
     *     caller's JVM can exit)
     */
    public static HttpApiServer bind(InetSocketAddress bind, ApiChannelInitializer initializer, int ioThreads)
            throws InterruptedException, IOException {
        EventLoopGroup boss = new NioEventLoopGroup(1);
        EventLoopGroup io = new NioEventLoopGroup(ioThreads);
        try {
            Channel channel = new ServerBootstrap()
                    .group(boss, io)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    // Bound but not accepting until startAccepting(): connections wait in the backlog meanwhile.
                    .option(ChannelOption.AUTO_READ, false)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    // A client may send its request and half-close; it still gets its answer (ApiHandler closes after).
                    .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .childHandler(initializer)
                    .bind(bind)
                    .sync()
                    .channel();
            return new HttpApiServer(boss, io, channel);
        } catch (Exception e) {
            // Netty rethrows a failed bind's BindException undeclared: catch everything, or the non-daemon
            // event-loop threads outlive the failure and the JVM never exits.
            boss.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            io.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    /** Starts accepting connections (the socket is bound, and connections queue, from {@link #start} on). */
    public void startAccepting() {
        channel.config().setAutoRead(true);
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** Stops accepting connections; those open stay open. */
    public void stopAccepting() {
        channel.close().awaitUninterruptibly();
    }

    /**
     * Waits until each I/O thread has run what was handed to it so far (answers written from workers among them), at
     * most {@code wait} for each: closing the connections first would drop those answers unsent.
     */
    public void drain(Duration wait) {
        for (EventExecutor executor : io) {
            if (!executor.isShuttingDown()) { // closed already
                executor.submit(() -> {}).awaitUninterruptibly(wait.toMillis());
            }
        }
    }

    @Override
    public void close() {
        stopAccepting();
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}

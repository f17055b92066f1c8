package org.cloudtalk.status.server;

import static java.util.Objects.requireNonNull;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioDatagramChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** The daemon's UDP socket: one channel, one event-loop thread (the work per datagram is microseconds). */
public final class StatusServer implements AutoCloseable {
    private static final int RECEIVE_BUFFER = 1 << 20;

    private final EventLoopGroup group;
    private final Channel channel;

    private StatusServer(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    /**
     * Binds the socket.
     *
     * @throws java.net.BindException when the address is taken or not local (the event loop is stopped, so the
     *     caller's JVM can exit)
     */
    public static StatusServer start(InetSocketAddress bindAddress, Supplier<StatusRequestHandler> handlers)
            throws InterruptedException, IOException {
        requireNonNull(bindAddress, "bindAddress is null");
        EventLoopGroup group = new NioEventLoopGroup(1);
        try {
            Channel channel = new Bootstrap()
                    .group(group)
                    .channel(NioDatagramChannel.class)
                    .option(ChannelOption.SO_RCVBUF, RECEIVE_BUFFER)
                    .handler(new StatusChannelInitializer(handlers))
                    .bind(bindAddress)
                    .sync()
                    .channel();
            return new StatusServer(group, channel);
        } catch (Exception e) {
            // Netty rethrows a failed bind's BindException undeclared: catch everything, or the non-daemon
            // event-loop thread outlives the failure and the JVM never exits.
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}

package org.cloudtalk.status.server;

import static java.util.Objects.requireNonNull;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.DatagramChannel;
import java.util.function.Supplier;

/** The status protocol's pipeline: one handler per channel, since datagrams are self-contained messages. */
public final class StatusChannelInitializer extends ChannelInitializer<DatagramChannel> {
    private final Supplier<StatusRequestHandler> handlers;

    public StatusChannelInitializer(Supplier<StatusRequestHandler> handlers) {
        this.handlers = requireNonNull(handlers, "handlers is null");
    }

    @Override
    protected void initChannel(DatagramChannel channel) {
        channel.pipeline().addLast("status", handlers.get());
    }
}

package org.cloudtalk.hadoop.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import javax.net.SocketFactory;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;

/**
 * Sockets bound to one local address before they connect, so that a MiniDFSCluster DataNode (or client) on
 * 127.0.0.x reaches the NameNode from 127.0.0.x — the NameNode takes a DataNode's IP from the RPC source address,
 * as it would from a real host. Set as {@code hadoop.rpc.socket.factory.class.default} with the address in
 * {@link #BIND}.
 */
public final class BoundSocketFactory extends SocketFactory implements Configurable {
    public static final String BIND = "testing.socket.bind";

    private Configuration conf;
    private InetAddress local;

    @Override
    public void setConf(Configuration conf) {
        this.conf = conf;
        try {
            this.local = InetAddress.getByName(conf.get(BIND, "127.0.0.1"));
        } catch (IOException e) {
            throw new IllegalArgumentException("Invalid value " + conf.get(BIND) + " for " + BIND, e);
        }
    }

    @Override
    public Configuration getConf() {
        return conf;
    }

    @Override
    public Socket createSocket() throws IOException {
        // A channel's socket, as Hadoop's StandardSocketFactory makes: HDFS reads blocks through the channel.
        Socket socket = SocketChannel.open().socket();
        socket.bind(new InetSocketAddress(local, 0));
        return socket;
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return connected(new InetSocketAddress(address, port));
    }

    private Socket connected(InetSocketAddress remote) throws IOException {
        Socket socket = createSocket();
        socket.connect(remote);
        return socket;
    }

    // Hadoop's IPC caches one client per socket factory: factories for different addresses must differ.
    @Override
    public boolean equals(Object other) {
        return other instanceof BoundSocketFactory factory && factory.local.equals(local);
    }

    @Override
    public int hashCode() {
        return local.hashCode();
    }
}

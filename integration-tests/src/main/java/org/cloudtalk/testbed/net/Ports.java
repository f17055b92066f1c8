package org.cloudtalk.testbed.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.cloudtalk.testbed.TestbedException;

/** Ports for the testbed's servers in the root namespace, where other programs of the machine listen too. */
public final class Ports {
    private Ports() {}

    /** A port free on {@code bindAddress} now. */
    public static int free(String bindAddress) {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(bindAddress))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new TestbedException("no free port on " + bindAddress + ": " + e.getMessage(), e);
        }
    }
}

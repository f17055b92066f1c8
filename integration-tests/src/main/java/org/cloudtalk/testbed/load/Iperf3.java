package org.cloudtalk.testbed.load;

import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.net.Commands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The traffic generator: iperf3 from Debian's packages, installed on first use. */
public final class Iperf3 {
    private static final Logger LOG = LoggerFactory.getLogger(Iperf3.class);

    private Iperf3() {}

    /** Installs iperf3 with apt-get (non-interactive) unless it is on the PATH. */
    public static void ensureInstalled() {
        if (Commands.onPath("iperf3")) {
            return;
        }
        LOG.warn("iperf3 is missing: installing it with apt-get");
        String[] install = {"env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-q", "iperf3"};
        if (Commands.attempt(install).exit() != 0) {
            Commands.run("env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "update", "-q");
            Commands.run(install);
        }
        if (!Commands.onPath("iperf3")) {
            throw new TestbedException("iperf3 is still not on the PATH after apt-get install iperf3");
        }
    }
}

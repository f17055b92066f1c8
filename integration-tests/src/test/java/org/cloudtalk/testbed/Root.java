package org.cloudtalk.testbed;

import static org.assertj.core.api.Assumptions.assumeThat;

import org.cloudtalk.testbed.net.Commands;

/** The testbed tests need root and iproute2; elsewhere they are skipped with this reason. */
public final class Root {
    private Root() {}

    public static void assumeNamespaces() {
        assumeThat("root".equals(System.getProperty("user.name")) && Commands.onPath("ip") && Commands.onPath("tc"))
                .as("skipped: the testbed needs root, ip and tc to build network namespaces")
                .isTrue();
    }
}

package org.cloudtalk.tools;

import java.io.ByteArrayInputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.cloudtalk.common.cli.Launchers;
import org.cloudtalk.server.CloudTalkServer;
import org.cloudtalk.server.config.ServerConfig;
import org.cloudtalk.status.config.DaemonConfig;
import org.cloudtalk.status.server.StatusDaemon;
import picocli.CommandLine.Command;

/**
 * {@code cloudtalk quickstart}: status daemons on 127.0.0.1-3 (links capped at 1000, 400 and 100 Mbit/s, so the
 * answers have a reason) and on the client host 127.0.0.4, a CloudTalk server on loopback, a few example queries through ctquery with what each one
 * shows, then everything stops. Nothing leaves the machine.
 */
@Command(
        name = "cloudtalk quickstart",
        mixinStandardHelpOptions = true,
        versionProvider = Launchers.Version.class,
        description = "Starts four status daemons and a CloudTalk server on loopback, runs example queries through "
                + "ctquery with what each one shows, then stops everything. Nothing leaves the machine.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every example answered as expected", "1:an example did not", "64:wrong command line"})
public final class Quickstart implements Callable<Integer> {
    private Quickstart() {}

    public static void main(String[] args) {
        System.exit(Launchers.commandLine(new Quickstart()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        return run(System.out);
    }

    public static int run(PrintStream out) throws Exception {
        Path dir = Files.createTempDirectory("cloudtalk-quickstart");
        List<StatusDaemon> daemons = new ArrayList<>();
        CloudTalkServer server = null;
        try {
            Path key = dir.resolve("status.key");
            byte[] secret = new byte[32];
            new SecureRandom().nextBytes(secret);
            Files.write(key, java.util.HexFormat.of().formatHex(secret).getBytes());
            int daemonPort = 20_000 + new SecureRandom().nextInt(20_000);
            int[] capsMbit = {1000, 400, 100, 1000};
            out.println("Starting status daemons on 127.0.0.1-4:" + daemonPort + " (NIC capacity capped at 1000, 400, "
                    + "100 and 1000 Mbit/s; real loopback and disk counters). 127.0.0.4 plays the client...");
            for (int i = 0; i < capsMbit.length; i++) {
                Map<String, String> properties = new HashMap<>();
                properties.put("key.file", key.toString());
                properties.put("bind", "127.0.0." + (i + 1));
                properties.put("port", Integer.toString(daemonPort));
                properties.put("endpoints", "127.0.0." + (i + 1));
                properties.put("interface", "lo");
                properties.put("disk.path", dir.toString());
                properties.put("nic.capacity.mbps", Integer.toString(capsMbit[i]));
                properties.put("counters.log.interval.s", "0");
                daemons.add(StatusDaemon.start(DaemonConfig.from(properties)));
            }
            Map<String, String> serverProperties = new HashMap<>();
            serverProperties.put("bind", "127.0.0.1");
            serverProperties.put("port", "0");
            serverProperties.put("status.key.file", key.toString());
            serverProperties.put("locator.port", Integer.toString(daemonPort));
            // A gather ends as soon as every daemon answered; the generous wait only matters for the first query,
            // whose cold JVM paths took over 50 ms on a busy machine (0 of 4 answered, a wrong example answer).
            serverProperties.put("gather.wait.ms", "1000");
            serverProperties.put("reservation.hold.ms", "0");
            server = CloudTalkServer.start(ServerConfig.from(serverProperties));
            String url = "http://127.0.0.1:" + server.localAddress().getPort();
            out.println("CloudTalk server at " + url + "\n");

            int failures = 0;
            failures += example(
                    out,
                    url,
                    "Which replica should serve a 256 MiB block to 127.0.0.4? The one with the most transmit capacity.",
                    "src = (127.0.0.1 127.0.0.2 127.0.0.3)\nf1 disk -> src size 256M rate r(f2)\n"
                            + "f2 src -> 127.0.0.4 size 256M rate r(f1)",
                    0,
                    "--evaluator",
                    "heuristic",
                    "--explain");
            failures += example(
                    out,
                    url,
                    "Where to put two replicas written by 127.0.0.4, with a completion estimate from the flow estimator.",
                    "r1 = r2 = (127.0.0.1 127.0.0.2 127.0.0.3)\nf1 127.0.0.4 -> r1 size 64M\n"
                            + "f2 r1 -> r2 size sz(f1) transfer t(f1)",
                    0,
                    "--evaluator",
                    "flow");
            failures += example(
                    out,
                    url,
                    "The same question by exhaustive search: every binding scored with the flow estimator.",
                    "r1 = r2 = (127.0.0.1 127.0.0.2 127.0.0.3)\nf1 127.0.0.4 -> r1 size 64M\n"
                            + "f2 r1 -> r2 size sz(f1) transfer t(f1)",
                    0,
                    "--evaluator",
                    "exhaustive");
            failures += example(
                    out,
                    url,
                    "A mistake: the query uses a variable it never declared. The error says where.",
                    "src = (127.0.0.1 127.0.0.2)\nf1 src -> dst size 1M",
                    CtQuery.QUERY_ERROR);
            out.println(
                    failures == 0
                            ? "Quickstart finished: every example answered as expected."
                            : "Quickstart: " + failures + " example(s) did not answer as expected.");
            return failures == 0 ? 0 : 1;
        } finally {
            if (server != null) {
                server.close();
            }
            daemons.forEach(StatusDaemon::close);
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder())
                        .forEach(path -> path.toFile().delete());
            }
        }
    }

    private static int example(
            PrintStream out, String url, String explanation, String query, int expectedExit, String... options) {
        out.println("# " + explanation);
        List<String> args = new ArrayList<>(List.of("--server", url));
        args.addAll(List.of(options));
        args.add("-");
        out.println("$ ctquery " + String.join(" ", args.subList(2, args.size())) + " <<'EOF'\n" + query + "\nEOF");
        int exit = CtQuery.run(args.toArray(String[]::new), new ByteArrayInputStream(query.getBytes()), out, out);
        out.println("(exit " + exit + ")\n");
        return exit == expectedExit ? 0 : 1;
    }
}

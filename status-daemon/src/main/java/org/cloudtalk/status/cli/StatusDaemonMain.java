package org.cloudtalk.status.cli;

import java.io.IOException;
import java.net.BindException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.cloudtalk.common.cli.Launchers;
import org.cloudtalk.common.config.ConfigException;
import org.cloudtalk.common.config.ConfigValues;
import org.cloudtalk.status.config.DaemonConfig;
import org.cloudtalk.status.server.StatusDaemon;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import sun.misc.Signal;

/** {@code cloudtalk status-daemon}: runs until interrupted. Flags override the file. SIGHUP logs the counters line. */
@Command(
        name = "cloudtalk status-daemon",
        mixinStandardHelpOptions = true,
        versionProvider = Launchers.Version.class,
        sortOptions = false,
        description = {
            "Runs this host's status daemon: samples NIC and disk counters and answers authenticated UDP status "
                    + "requests until stopped. Flags override the configuration file; every key is in "
                    + "docs/status-daemon.md. SIGHUP logs the counters line.",
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped", "64:wrong command line", "71:cannot start", "78:invalid configuration"})
public final class StatusDaemonMain implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "a properties file of daemon keys")
    private Path configFile;

    @Option(names = "--port", paramLabel = "N", description = "UDP port (key port, default 7450)")
    private String port;

    @Option(names = "--bind", paramLabel = "IP", description = "address to listen on (key bind, default 0.0.0.0)")
    private String bind;

    @Option(names = "--key-file", paramLabel = "FILE", description = "the deployment's shared key (key key.file)")
    private String keyFile;

    @Option(
            names = "--endpoints",
            paramLabel = "IP,...",
            description = "endpoint addresses this daemon reports on (key endpoints)")
    private String endpoints;

    @Option(names = "--interval-ms", paramLabel = "N", description = "sampling interval (key sample.interval.ms)")
    private String intervalMillis;

    @Spec
    private CommandSpec spec;

    public static void main(String[] args) {
        int exit = Launchers.commandLine(new StatusDaemonMain()).execute(args);
        if (exit != 0) {
            System.exit(exit);
        }
    }

    @Override
    public Integer call() throws InterruptedException {
        DaemonConfig config;
        try {
            config = DaemonConfig.from(properties());
        } catch (ConfigException e) {
            error("status-daemon: " + e.getMessage());
            return Launchers.CONFIG;
        }
        StatusDaemon daemon;
        try {
            daemon = StatusDaemon.start(config);
        } catch (BindException e) {
            error("status-daemon: " + Launchers.bindFailure(config.bindAddress(), e));
            return Launchers.CONFIG;
        } catch (IOException e) {
            error("status-daemon: cannot start: " + e.getMessage());
            return 71;
        }
        Signal.handle(new Signal("HUP"), signal -> daemon.logCounters());
        Launchers.runUntilStopped(daemon, "status-daemon");
        return 0;
    }

    /** The daemon's keys: the file's, then the flags'. */
    Map<String, String> properties() throws ConfigException {
        Map<String, String> properties = new LinkedHashMap<>();
        if (configFile != null) {
            properties.putAll(ConfigValues.read(configFile, "--config"));
        }
        Launchers.putIfSet(properties, "port", port);
        Launchers.putIfSet(properties, "bind", bind);
        Launchers.putIfSet(properties, "key.file", keyFile);
        Launchers.putIfSet(properties, "endpoints", endpoints);
        Launchers.putIfSet(properties, "sample.interval.ms", intervalMillis);
        return properties;
    }

    private void error(String message) {
        spec.commandLine().getErr().println(message);
        spec.commandLine().getErr().flush();
    }
}

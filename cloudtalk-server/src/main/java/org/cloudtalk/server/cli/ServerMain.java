package org.cloudtalk.server.cli;

import java.net.BindException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.cloudtalk.common.cli.Launchers;
import org.cloudtalk.common.config.ConfigException;
import org.cloudtalk.server.CloudTalkServer;
import org.cloudtalk.server.config.ServerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cloudtalk server}: runs until stopped. Flags override the file. */
@Command(
        name = "cloudtalk server",
        mixinStandardHelpOptions = true,
        versionProvider = Launchers.Version.class,
        sortOptions = false,
        description = "Runs a CloudTalk server: answers tenants' queries over HTTP until stopped. Flags override the "
                + "configuration file; every key is in docs/server.md.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped", "64:wrong command line", "78:invalid configuration (the message names the key)"})
public final class ServerMain implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "a properties file of server keys")
    private Path configFile;

    @Option(names = "--port", paramLabel = "N", description = "HTTP port (key port, default 7480)")
    private String port;

    @Option(names = "--bind", paramLabel = "IP", description = "address to listen on (key bind, default 127.0.0.1)")
    private String bind;

    @Option(
            names = "--status-file",
            paramLabel = "FILE",
            description = "host load from a JSON file instead of daemons (key status.file)")
    private String statusFile;

    @Option(
            names = "--key-file",
            paramLabel = "FILE",
            description = "the deployment's status key, to ask the status daemons (key status.key.file)")
    private String keyFile;

    @Spec
    private CommandSpec spec;

    public static void main(String[] args) {
        int exit = Launchers.commandLine(new ServerMain()).execute(args);
        if (exit != 0) {
            System.exit(exit);
        }
    }

    @Override
    public Integer call() throws Exception {
        CloudTalkServer server;
        try {
            ServerConfig config = ServerConfig.from(values());
            try {
                server = CloudTalkServer.start(config);
            } catch (BindException e) {
                throw new ConfigException(Launchers.bindFailure(config.bind(), e));
            }
        } catch (ConfigException e) {
            error("cloudtalk server: " + e.getMessage());
            return Launchers.CONFIG;
        }
        Launchers.runUntilStopped(server, "server");
        return 0;
    }

    /** The server's keys: the flags', then the file's. */
    private Map<String, String> values() throws ConfigException {
        Map<String, String> values = new HashMap<>();
        Launchers.putIfSet(values, "port", port);
        Launchers.putIfSet(values, "bind", bind);
        Launchers.putIfSet(values, "status.file", statusFile);
        Launchers.putIfSet(values, "status.key.file", keyFile);
        if (configFile != null) {
            ServerConfig.read(configFile, "--config").forEach(values::putIfAbsent);
        }
        return values;
    }

    private void error(String message) {
        spec.commandLine().getErr().println(message);
        spec.commandLine().getErr().flush();
    }
}

package org.cloudtalk.server.cli;

import java.net.BindException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.cloudtalk.server.CloudTalkServer;
import org.cloudtalk.server.config.ServerConfig;

/**
 * {@code cloudtalk server [--config FILE] [--port N] [--bind IP] [--status-file F] [--key-file F]}: runs until
 * stopped. Flags override the file.
 */
public final class ServerMain {
    private static final Map<String, String> FLAGS =
            Map.of("--port", "port", "--bind", "bind", "--status-file", "status.file", "--key-file", "status.key.file");

    private ServerMain() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> values = new HashMap<>();
        try {
            for (int i = 0; i < args.length; i += 2) {
                if (i + 1 >= args.length) {
                    throw new ServerConfig.ConfigException("option " + args[i] + " needs a value");
                }
                if (args[i].equals("--config")) {
                    Map<String, String> file = ServerConfig.read(java.nio.file.Path.of(args[i + 1]));
                    file.forEach(values::putIfAbsent);
                } else if (FLAGS.containsKey(args[i])) {
                    values.put(FLAGS.get(args[i]), args[i + 1]);
                } else {
                    throw new ServerConfig.ConfigException("unknown option " + args[i]);
                }
            }
            ServerConfig config = ServerConfig.from(values);
            CloudTalkServer server;
            try {
                server = CloudTalkServer.start(config);
            } catch (BindException e) {
                throw new ServerConfig.ConfigException(
                        "Invalid value " + config.bind().getPort()
                                + " for port: cannot listen on "
                                + config.bind().getAddress().getHostAddress() + ":"
                                + config.bind().getPort() + " (" + e.getMessage() + ")");
            }
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                server.close();
                                stopped.countDown();
                            },
                            "server-shutdown"));
            stopped.await();
        } catch (ServerConfig.ConfigException e) {
            System.err.println("cloudtalk server: " + e.getMessage());
            System.exit(78);
        }
    }
}

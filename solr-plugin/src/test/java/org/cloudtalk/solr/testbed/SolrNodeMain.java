package org.cloudtalk.solr.testbed;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.solr.embedded.JettyConfig;
import org.apache.solr.embedded.JettySolrRunner;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The JVMs of a SolrCloud on the testbed (integration-tests' {@code solr-replicas}), as Solr's own scripts would start
 * them but without a distribution to unpack: {@code zookeeper} (a standalone ZooKeeper) and {@code node} (one Solr
 * node: Jetty with Solr's servlets, solr.xml from its home). Each runs until it is terminated.
 */
@Command(
        name = "solr-node",
        mixinStandardHelpOptions = true,
        subcommands = {SolrNodeMain.ZooKeeper.class, SolrNodeMain.Node.class})
public final class SolrNodeMain {
    public static void main(String[] args) {
        System.exit(new CommandLine(new SolrNodeMain()).execute(args));
    }

    @Command(name = "zookeeper", description = "A standalone ZooKeeper server.")
    static final class ZooKeeper implements Callable<Integer> {
        @Option(names = "--port", required = true)
        int port;

        @Option(names = "--dir", required = true)
        Path dir;

        @Option(names = "--bind", required = true, description = "The address to listen on.")
        String bind;

        @Override
        public Integer call() throws Exception {
            Files.createDirectories(dir);
            // Its own address only, and no admin web server (it would take port 8080 on every interface).
            Path config = Files.writeString(
                    dir.resolve("zoo.cfg"),
                    String.join(
                            "\n",
                            "tickTime=2000",
                            "dataDir=" + dir,
                            "clientPort=" + port,
                            "clientPortAddress=" + bind,
                            "maxClientCnxns=500",
                            "admin.enableServer=false",
                            ""));
            ZooKeeperServerMain.main(new String[] {config.toString()});
            return 0;
        }
    }

    @Command(name = "node", description = "A Solr node in SolrCloud mode, its solr.xml in --home.")
    static final class Node implements Callable<Integer> {
        @Option(names = "--home", required = true, description = "Solr home, holding solr.xml.")
        Path home;

        @Option(names = "--host", required = true, description = "The address in the node's name.")
        String host;

        @Option(names = "--port", required = true)
        int port;

        @Option(names = "--zk", required = true, description = "ZooKeeper's HOST:PORT.")
        String zooKeeper;

        @Option(
                names = "--listen",
                split = ",",
                description = "Addresses to serve on besides loopback (the node name's address among them).")
        List<String> listen = List.of();

        @Override
        public Integer call() throws Exception {
            Properties properties = new Properties();
            properties.setProperty("host", host);
            properties.setProperty("hostPort", Integer.toString(port));
            properties.setProperty("zkHost", zooKeeper);
            System.setProperty("zkHost", zooKeeper);
            System.setProperty("host", host);
            JettySolrRunner jetty = new JettySolrRunner(
                    home.toString(),
                    properties,
                    JettyConfig.builder()
                            .setPort(port)
                            .setContext("/solr")
                            .stopAtShutdown(true)
                            .build());
            jetty.start();
            listenAlsoOn(jetty, listen, port);
            System.out.println("solr node " + jetty.getNodeName() + " up at " + jetty.getBaseUrl());
            new CountDownLatch(1).await();
            return 0;
        }

        /**
         * JettySolrRunner binds loopback only, which other hosts cannot reach: a connector per address, sharing the
         * loopback connector's protocols (HTTP/1.1 and the h2c that Solr's nodes speak to each other).
         */
        private static void listenAlsoOn(JettySolrRunner jetty, List<String> addresses, int port) throws Exception {
            Field field = JettySolrRunner.class.getDeclaredField("server");
            field.setAccessible(true);
            Server server = (Server) field.get(jetty);
            ServerConnector loopback = (ServerConnector) server.getConnectors()[0];
            for (String address : addresses) {
                ServerConnector connector = new ServerConnector(
                        server, loopback.getConnectionFactories().toArray(new ConnectionFactory[0]));
                connector.setHost(address);
                connector.setPort(port);
                server.addConnector(connector);
                connector.start();
            }
        }
    }
}

package org.cloudtalk.common.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.cloudtalk.common.config.ConfigException;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * What every CloudTalk launcher shares: the exit codes of docs/cli.md, the version, and picocli set up so that a user
 * mistake prints one line (and a pointer to {@code --help}), never a stack trace.
 */
public final class Launchers {
    /** Query error (the message says where: {@code line L:C}). */
    public static final int QUERY_ERROR = 2;
    /** Refused (limits, rate) or, for a probe, no reply in time. */
    public static final int REFUSED = 3;
    /** The server or daemon is unreachable, or answered something unusable. */
    public static final int UNAVAILABLE = 4;
    /** Wrong command line (sysexits EX_USAGE). */
    public static final int USAGE = 64;
    /** An input file that cannot be read (EX_NOINPUT). */
    public static final int NO_INPUT = 66;
    /** An output file that cannot be written (EX_CANTCREAT). */
    public static final int CANNOT_CREATE = 73;
    /** A defect of ours (EX_SOFTWARE): the log has the details. */
    public static final int INTERNAL = 70;
    /** A configuration value that is wrong: {@code Invalid value V for K: reason} (EX_CONFIG). */
    public static final int CONFIG = 78;

    private Launchers() {}

    /** A command line for {@code command} whose usage errors exit {@link #USAGE} and whose defects exit {@link #INTERNAL}. */
    public static CommandLine commandLine(Object command) {
        CommandLine line = new CommandLine(command);
        line.setParameterExceptionHandler((e, args) -> {
            CommandLine failed = e.getCommandLine();
            PrintWriter err = failed.getErr();
            // A subcommand's full name ("itchy show"): its name alone is not a command a user can run.
            String name = failed.getCommandSpec().qualifiedName();
            err.println(name + ": " + e.getMessage());
            err.println("Try '" + name + " --help' for more information.");
            err.flush();
            return USAGE;
        });
        line.setExecutionExceptionHandler((e, failed, parseResult) -> {
            LoggerFactory.getLogger(command.getClass()).debug("failed", e);
            failed.getErr()
                    .println(failed.getCommandSpec().qualifiedName() + ": internal error: " + e
                            + " (CLOUDTALK_LOG_LEVEL=debug shows the stack trace)");
            failed.getErr().flush();
            return INTERNAL;
        });
        return line;
    }

    /** Blocks until the JVM is asked to stop (SIGTERM, Ctrl-C), then closes {@code service} before it exits. */
    public static void runUntilStopped(AutoCloseable service, String name) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                service.close();
                            } catch (Exception e) {
                                LoggerFactory.getLogger(Launchers.class).warn("{} did not stop cleanly", name, e);
                            }
                            stopped.countDown();
                        },
                        name + "-shutdown"));
        stopped.await();
    }

    /**
     * The config error for a socket that could not be bound, blaming the key at fault: {@code bind} for an address
     * that is not this machine's, {@code port} otherwise (taken, or privileged).
     */
    public static String bindFailure(InetSocketAddress address, BindException failure) {
        InetAddress host = address.getAddress();
        boolean local;
        try {
            // Loopback too: Linux answers for all of 127.0.0.0/8, while only 127.0.0.1 is on an interface.
            local = host.isAnyLocalAddress()
                    || host.isLoopbackAddress()
                    || NetworkInterface.getByInetAddress(host) != null;
        } catch (SocketException e) {
            local = true; // the interfaces cannot be listed: the port is the likelier fault
        }
        return "Invalid value " + (local ? address.getPort() + " for port" : host.getHostAddress() + " for bind")
                + ": cannot listen on " + authority(address) + " (" + failure.getMessage() + ")";
    }

    /** {@code host:port} as a URL writes it: an IPv6 address in brackets. */
    public static String authority(InetSocketAddress address) {
        String host = address.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
    }

    /**
     * Puts a flag's value under its configuration key, if the flag was given. A blank value is refused: in a file a
     * blank key means "the default", but a flag given as {@code --port ""} is a mistake (an unset shell variable).
     */
    public static void putIfSet(Map<String, String> values, String key, String value) throws ConfigException {
        if (value != null) {
            if (value.isBlank()) {
                throw ConfigException.invalid(key, "'" + value + "'", "empty (leave the flag out for the default)");
            }
            values.put(key, value);
        }
    }

    /** The project version, from the build. */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties properties = new Properties();
            try (InputStream in = Launchers.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    properties.load(in);
                }
            }
            return new String[] {
                "CloudTalk " + properties.getProperty("version", "(unknown version)"),
                "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"
            };
        }
    }
}

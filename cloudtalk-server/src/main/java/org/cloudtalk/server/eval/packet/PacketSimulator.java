package org.cloudtalk.server.eval.packet;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs the native ns-3 helper (src/main/native/packet-sim.cc), one process per simulation. Its output goes to
 * unlinked temp files rather than pipes so that a large answer can never block the helper while we wait for it with a
 * timeout.
 *
 * <p>Concurrency: stateless; simulations may run from many threads at once.
 */
public final class PacketSimulator {
    /** The simulated time (packet-sim.cc's kHorizonSeconds): a flow not finished by then never finishes. */
    public static final long HORIZON_SECONDS = 600;

    /** Results take a line per flow: far below this for any query a server takes. */
    private static final int MAX_OUTPUT_BYTES = 16 << 20;

    private static final int MAX_ERROR_BYTES = 4096;

    private final Path executable;

    public PacketSimulator(Path executable) {
        this.executable = requireNonNull(executable, "executable is null");
    }

    /** Where the build puts the helper: {@code target/native/packet-sim}, next to the server's classes or jar. */
    public static Path defaultExecutable() {
        try {
            Path code = Path.of(PacketSimulator.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            return code.getParent().resolve("native").resolve("packet-sim");
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return Path.of("packet-sim");
        }
    }

    public Path executable() {
        return executable;
    }

    public boolean available() {
        return Files.isRegularFile(executable) && Files.isExecutable(executable);
    }

    /**
     * @throws SimulatorUnavailableException where the helper was not built
     * @throws TimeoutException when it did not finish within {@code timeout} (it is killed)
     * @throws IOException when it could not run or rejected its input (a bug: the message has its error)
     */
    public SimulationResult run(SimulationInput input, Duration timeout)
            throws IOException, TimeoutException, InterruptedException {
        if (!available()) {
            throw new SimulatorUnavailableException("the packet simulator is not available: " + executable
                    + " was not built (the server was built without ns-3; bin/install-ns3 installs it, then rebuild)");
        }
        Path out = Files.createTempFile("cloudtalk-packet-sim", ".out");
        Path err = Files.createTempFile("cloudtalk-packet-sim", ".err");
        Process process = null;
        // Opened before the files are unlinked (right after the helper starts): nothing stays on disk, even if this
        // JVM dies mid-simulation, and the helper still writes to and we still read from the open files.
        try (InputStream output = Files.newInputStream(out);
                InputStream errors = Files.newInputStream(err)) {
            // Absolute: a bare name would be looked up on the PATH, not where available() found it.
            process = new ProcessBuilder(executable.toAbsolutePath().toString())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            try (OutputStream stdin = process.getOutputStream()) {
                stdin.write(input.text().getBytes(StandardCharsets.US_ASCII));
            } catch (IOException e) {
                process.waitFor(1, TimeUnit.SECONDS);
                throw new IOException(executable + " stopped reading its input (" + e.getMessage() + "), not a"
                        + " packet simulator? " + bounded(errors, MAX_ERROR_BYTES));
            }
            if (!process.waitFor(Math.max(1, timeout.toNanos()), TimeUnit.NANOSECONDS)) {
                throw new TimeoutException("the simulation took longer than " + timeout.toMillis() + " ms");
            }
            if (process.exitValue() != 0) {
                throw new IOException("packet-sim exited with status " + process.exitValue() + ": "
                        + bounded(errors, MAX_ERROR_BYTES));
            }
            byte[] results = output.readNBytes(MAX_OUTPUT_BYTES + 1);
            if (results.length > MAX_OUTPUT_BYTES) {
                throw new IOException(executable + " wrote more than " + (MAX_OUTPUT_BYTES >> 20)
                        + " MB of results, not a packet simulator?");
            }
            return parse(new String(results, StandardCharsets.US_ASCII).lines().toList());
        } finally {
            if (process != null && process.isAlive()) {
                // A wrapper script as the simulator (packet.simulator) would leave its children running.
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** What the helper said on standard error, up to {@code limit} bytes. */
    private static String bounded(InputStream errors, int limit) throws IOException {
        return new String(errors.readNBytes(limit), StandardCharsets.UTF_8).strip();
    }

    static SimulationResult parse(List<String> lines) throws IOException {
        Map<String, SimulationResult.Times> flows = new HashMap<>();
        Long drops = null;
        for (String line : lines) {
            String[] words = line.strip().split(" ");
            try {
                if (words[0].equals("flow") && words.length == 4) {
                    OptionalDouble finish = words[3].equals("unfinished")
                            ? OptionalDouble.empty()
                            : OptionalDouble.of(Double.parseDouble(words[3]));
                    flows.put(words[1], new SimulationResult.Times(Double.parseDouble(words[2]), finish));
                    continue;
                }
                if (words[0].equals("drops") && words.length == 2) {
                    drops = Long.parseLong(words[1]);
                    continue;
                }
            } catch (NumberFormatException e) {
                // reported below with the line
            }
            throw new IOException("packet-sim printed an unexpected line: " + line);
        }
        if (drops == null) {
            throw new IOException("packet-sim ended without its 'drops' line");
        }
        return new SimulationResult(flows, drops);
    }
}

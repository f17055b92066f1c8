package org.cloudtalk.server.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.cloudtalk.client.CloudTalkClient;
import org.cloudtalk.client.CloudTalkException;
import org.cloudtalk.client.QueryResult;
import org.cloudtalk.lang.cli.CheckQuery;

/**
 * {@code ctquery [--server URL] [--evaluator E] [--static] [--explain] [--json] [--timeout-ms N] (QUERY | -f FILE | -)} asks a
 * CloudTalk server and prints {@code VAR = address} lines and the estimate; {@code ctquery --check ...} only parses
 * and validates. Exit codes: 0 answered, 2 query error, 3 refused or rate limited, 4 server unavailable, 64 usage,
 * 66 unreadable input.
 */
public final class CtQuery {
    static final int QUERY_ERROR = 2;
    static final int REFUSED = 3;
    static final int UNAVAILABLE = 4;
    static final int USAGE = 64;
    static final int NO_INPUT = 66;
    public static final String DEFAULT_SERVER = "http://127.0.0.1:7480";
    private static final String USAGE_TEXT =
            "usage: ctquery [--server URL] [--evaluator heuristic|flow|exhaustive|refined|packet]"
                    + " [--static] [--explain] [--json] [--timeout-ms N] (QUERY | -f FILE | -)\n       ctquery --check [--json] [FILE|-]";

    private CtQuery() {}

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    public static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
        if (Arrays.asList(args).contains("--check")) {
            return CheckQuery.run(args, stdin, out, err);
        }
        String server = DEFAULT_SERVER;
        CloudTalkClient.Evaluator evaluator = CloudTalkClient.Evaluator.HEURISTIC;
        boolean staticInfo = false;
        boolean json = false;
        boolean explain = false;
        long timeoutMillis = 2000;
        String text = null;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--server" -> server = value(args, ++i);
                    case "--evaluator" -> evaluator =
                            CloudTalkClient.Evaluator.valueOf(value(args, ++i).toUpperCase(Locale.ROOT));
                    case "--static" -> staticInfo = true;
                    case "--json" -> json = true;
                    case "--explain" -> explain = true;
                    case "--timeout-ms" -> timeoutMillis = Long.parseLong(value(args, ++i));
                    case "-f" -> text = read(Path.of(value(args, ++i)), null);
                    case "-" -> text = read(null, stdin);
                    case "-h", "--help" -> {
                        out.println(USAGE_TEXT);
                        return 0;
                    }
                    default -> {
                        if (args[i].startsWith("--") || text != null) {
                            throw new IllegalArgumentException("unexpected argument " + args[i]);
                        }
                        text = args[i];
                    }
                }
            }
            if (text == null) {
                throw new IllegalArgumentException("no query given");
            }
        } catch (IOException e) {
            err.println("ctquery: cannot read the query: " + e.getMessage());
            return NO_INPUT;
        } catch (IllegalArgumentException e) {
            err.println("ctquery: " + e.getMessage() + "\n" + USAGE_TEXT);
            return USAGE;
        }
        CloudTalkClient client = new CloudTalkClient(URI.create(server), Duration.ofSeconds(2));
        try {
            QueryResult result = client.query(text, evaluator, staticInfo, explain, Duration.ofMillis(timeoutMillis));
            out.print(json ? json(result) : human(result));
            return 0;
        } catch (CloudTalkException e) {
            err.println(
                    e.kind() == CloudTalkException.Kind.QUERY_ERROR ? e.getMessage() : "ctquery: " + e.getMessage());
            return switch (e.kind()) {
                case QUERY_ERROR -> QUERY_ERROR;
                case REFUSED, RATE_LIMITED -> REFUSED;
                case UNAVAILABLE -> UNAVAILABLE;
            };
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return UNAVAILABLE;
        }
    }

    static String human(QueryResult result) {
        StringBuilder out = new StringBuilder();
        new TreeMap<>(result.bindings())
                .forEach((name, value) ->
                        out.append(name).append(" = ").append(value).append('\n'));
        out.append("# evaluator ").append(result.evaluator());
        if (result.estimatedCompletionSeconds().isPresent()) {
            out.append(String.format(
                    Locale.ROOT,
                    ", estimated completion %.3f s",
                    result.estimatedCompletionSeconds().getAsDouble()));
        }
        out.append(String.format(
                Locale.ROOT, ", status %d of %d answered", result.statusAnswered(), result.statusAsked()));
        if (result.statusReused() > 0) {
            out.append(", ").append(result.statusReused()).append(" reused");
        }
        if (result.sampled()) {
            out.append(", candidates sampled");
        }
        out.append(", ").append(result.elapsedMicros()).append(" us\n");
        if (!result.candidateScores().isEmpty()) {
            out.append(
                    "# candidate scores, bytes/s of the scarcest resource (capacity - use / W), in binding order:\n");
            result.candidateScores().forEach((variable, scores) -> {
                out.append("#   ").append(variable).append(':');
                scores.forEach((candidate, score) -> out.append(' ')
                        .append(candidate)
                        .append('=')
                        .append(Double.isInfinite(score) ? "unconstrained" : String.format(Locale.ROOT, "%.3g", score))
                        .append(candidate.equals(result.bindings().get(variable)) ? " (chosen)" : ""));
                out.append('\n');
            });
        }
        return out.toString();
    }

    static String json(QueryResult result) {
        StringBuilder out = new StringBuilder("{\"bindings\":{");
        boolean first = true;
        for (Map.Entry<String, String> binding : new TreeMap<>(result.bindings()).entrySet()) {
            out.append(first ? "" : ",")
                    .append('"')
                    .append(binding.getKey())
                    .append("\":\"")
                    .append(binding.getValue())
                    .append('"');
            first = false;
        }
        out.append("},\"evaluator\":\"").append(result.evaluator()).append("\",\"estimatedCompletionSeconds\":");
        out.append(
                result.estimatedCompletionSeconds().isPresent()
                        ? Double.toString(result.estimatedCompletionSeconds().getAsDouble())
                        : "null");
        out.append(",\"status\":{\"asked\":")
                .append(result.statusAsked())
                .append(",\"answered\":")
                .append(result.statusAnswered());
        out.append(",\"reused\":")
                .append(result.statusReused())
                .append(",\"sampled\":")
                .append(result.sampled());
        return out.append("},\"elapsedMicros\":")
                .append(result.elapsedMicros())
                .append("}\n")
                .toString();
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException("option " + args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static String read(Path file, InputStream stdin) throws IOException {
        try (InputStream in = file == null ? stdin : Files.newInputStream(file)) {
            return new String(in.readNBytes(16 << 20), StandardCharsets.UTF_8);
        }
    }
}

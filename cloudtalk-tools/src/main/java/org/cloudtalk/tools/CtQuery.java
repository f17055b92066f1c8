package org.cloudtalk.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.cloudtalk.client.CloudTalkClient;
import org.cloudtalk.client.CloudTalkException;
import org.cloudtalk.client.QueryResult;
import org.cloudtalk.client.api.EvaluatorName;
import org.cloudtalk.client.api.HttpApi;
import org.cloudtalk.common.cli.Launchers;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.cli.CheckQuery;
import org.cloudtalk.lang.parser.QueryText;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ctquery [--server URL] [--evaluator E] [--static] [--explain] [--json] [--timeout-ms N] (QUERY | -f FILE | -)}
 * asks a CloudTalk server and prints {@code VAR = address} lines and the estimate; {@code ctquery --check ...} only
 * parses and validates.
 */
@Command(
        name = "ctquery",
        mixinStandardHelpOptions = true,
        versionProvider = Launchers.Version.class,
        sortOptions = false,
        description = {
            "Asks a CloudTalk server where to run what a query describes, and prints the bindings and the estimate.",
            "ctquery --check [--json] [FILE|-] only parses and validates a query (no server needed)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:answered",
            "2:query error (line:column)",
            "3:refused or rate limited",
            "4:server unreachable, timed out or unusable answer",
            "64:wrong command line",
            "66:unreadable query file"
        })
public final class CtQuery implements Callable<Integer> {
    /**
     * How much longer than the query's deadline ctquery waits: the server answers by the deadline (a 503 saying so at
     * worst), and this process's first call also connects; giving up at the deadline would report no answer instead.
     */
    private static final Duration ANSWER_GRACE = Duration.ofSeconds(2);

    static final int QUERY_ERROR = Launchers.QUERY_ERROR;
    static final int REFUSED = Launchers.REFUSED;
    static final int UNAVAILABLE = Launchers.UNAVAILABLE;
    static final int USAGE = Launchers.USAGE;
    static final int NO_INPUT = Launchers.NO_INPUT;
    public static final String DEFAULT_SERVER = "http://127.0.0.1:7480";

    @Option(
            names = "--server",
            paramLabel = "URL",
            defaultValue = DEFAULT_SERVER,
            description = "default: ${DEFAULT-VALUE}")
    private String server;

    @Option(
            names = "--evaluator",
            paramLabel = "E",
            defaultValue = "refined",
            completionCandidates = EvaluatorWireNames.class,
            description = "one of ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    private EvaluatorName evaluator;

    /** The evaluators as the server names them (the help would else show the enum's upper-case constants). */
    static final class EvaluatorWireNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(EvaluatorName.values())
                    .map(EvaluatorName::wireName)
                    .iterator();
        }
    }

    @Option(names = "--static", description = "judge by capacities only (info=static), not current load")
    private boolean staticInfo;

    @Option(names = "--explain", description = "also print each candidate's score")
    private boolean explain;

    @Option(names = "--json", description = "print the answer as JSON")
    private boolean json;

    @Option(
            names = "--timeout-ms",
            paramLabel = "N",
            defaultValue = "2000",
            description = "the query's deadline at the server, which answers by then (default: ${DEFAULT-VALUE});"
                    + " ctquery waits up to 2 s longer for that answer")
    private long timeoutMillis;

    @Option(names = "-f", paramLabel = "FILE", description = "read the query from FILE")
    private Path file;

    @Parameters(arity = "0..1", paramLabel = "QUERY", description = "the query text, or - to read standard input")
    private String text;

    @Spec
    private CommandSpec spec;

    private final InputStream stdin;
    private final PrintStream out;
    private final PrintStream err;

    private CtQuery(InputStream stdin, PrintStream out, PrintStream err) {
        this.stdin = stdin;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    public static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
        if (Arrays.asList(args).contains("--check")) {
            return CheckQuery.run(args, stdin, out, err);
        }
        CommandLine line = Launchers.commandLine(new CtQuery(stdin, out, err))
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true));
        return line.execute(args);
    }

    @Override
    public Integer call() {
        URI base = serverUri();
        if (timeoutMillis <= 0 || timeoutMillis > HttpApi.MAX_TIMEOUT_MILLIS) {
            throw new ParameterException(
                    spec.commandLine(),
                    "Invalid value " + timeoutMillis + " for --timeout-ms: must be between 1 and "
                            + HttpApi.MAX_TIMEOUT_MILLIS + " (the server's own limit)");
        }
        String query;
        try {
            if (file != null && text != null) {
                throw new ParameterException(spec.commandLine(), "give the query as text, as -f FILE or as -, not two");
            } else if (file != null) {
                query = read(Files.newInputStream(file));
            } else if ("-".equals(text)) {
                query = read(stdin);
            } else if (text != null) {
                query = text;
            } else {
                throw new ParameterException(spec.commandLine(), "no query given (QUERY, -f FILE or -)");
            }
        } catch (IOException e) {
            err.println("ctquery: cannot read the query: " + (e.getMessage() != null ? e.getMessage() : e));
            return NO_INPUT;
        } catch (QueryException e) {
            e.errors().forEach(error -> err.println(error.formatted()));
            return QUERY_ERROR;
        }
        if (query == null) {
            err.println("line 1:1: query is more than " + HttpApi.MAX_QUERY_CHARS
                    + " bytes long; no server accepts it (limits.query.chars is at most " + HttpApi.MAX_QUERY_CHARS
                    + ")");
            return QUERY_ERROR;
        }
        CloudTalkClient client = new CloudTalkClient(base, Duration.ofSeconds(2));
        try {
            QueryResult result =
                    client.query(query, evaluator, staticInfo, explain, Duration.ofMillis(timeoutMillis), ANSWER_GRACE);
            out.print(json ? result.json() + "\n" : human(result));
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

    /** The server's base URL, checked here: the HTTP client's own errors do not say what is wrong with it. */
    private URI serverUri() {
        try {
            return CloudTalkClient.serverBase(server);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(
                    spec.commandLine(),
                    "Invalid value " + server + " for --server: " + e.getMessage() + " (e.g. " + DEFAULT_SERVER + ")");
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
        if (result.statusAsked() > 0 && result.statusAnswered() + result.statusReused() == 0) {
            out.append("# no status arrived: every host counted as heavily loaded, so this answer does not reflect load"
                    + " (are the status daemons running, with this deployment's key?)\n");
        }
        result.notes().forEach(note -> out.append("# note: ").append(note).append('\n'));
        if (!result.candidateScores().isEmpty()) {
            out.append("# candidate scores, bytes/s of the scarcest resource (capacity - use / W):\n");
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

    /**
     * The query's text, or null when it is longer than any server accepts (the rest is left unread).
     *
     * @throws QueryException where its bytes are not UTF-8
     */
    private static String read(InputStream input) throws IOException {
        try (InputStream in = input) {
            byte[] bytes = in.readNBytes(HttpApi.MAX_QUERY_CHARS + 1);
            return bytes.length > HttpApi.MAX_QUERY_CHARS ? null : QueryText.decode(bytes);
        }
    }
}

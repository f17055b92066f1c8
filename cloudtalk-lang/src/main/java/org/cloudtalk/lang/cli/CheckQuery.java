package org.cloudtalk.lang.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.cloudtalk.lang.ErrorCode;
import org.cloudtalk.lang.QueryError;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.Span;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.parser.ParserLimits;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.lang.parser.QueryText;
import org.cloudtalk.lang.print.QueryJson;
import org.cloudtalk.lang.print.QueryPrinter;

/**
 * {@code ctquery --check [--json] [FILE|-]}: parse and validate a query. Prints the canonical form (or the AST as
 * JSON) and exits 0, or prints each error as {@code line L:C: message} to stderr and exits 2.
 */
public final class CheckQuery {
    static final int OK = 0;
    static final int QUERY_ERROR = 2;
    static final int USAGE = 64;
    static final int NO_INPUT = 66;
    /** A defect of ours (EX_SOFTWARE), as the other launchers say it: one line, no stack trace. */
    static final int INTERNAL = 70;

    private static final String USAGE_TEXT = "usage: ctquery --check [--json] [FILE|-]";

    private CheckQuery() {}

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    /** Runs the check with the given streams; returns the exit code. */
    public static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
        boolean json = false;
        String file = "-";
        int files = 0;
        for (String arg : args) {
            switch (arg) {
                case "--json" -> json = true;
                case "--check" -> {}
                case "-h", "--help" -> {
                    out.println(USAGE_TEXT);
                    return OK;
                }
                default -> {
                    if (arg.startsWith("--") || ++files > 1) {
                        err.println("ctquery: unexpected argument '" + arg + "'\n" + USAGE_TEXT);
                        return USAGE;
                    }
                    file = arg;
                }
            }
        }
        int limit = ParserLimits.DEFAULT.maxQueryChars();
        byte[] bytes;
        boolean unread;
        try (InputStream in = file.equals("-") ? stdin : Files.newInputStream(Path.of(file))) {
            // A UTF-8 character is at most 4 bytes: reading one byte past that bound proves the query too long
            // without reading an unbounded stream into memory.
            bytes = in.readNBytes(limit * 4 + 1);
            unread = bytes.length > limit * 4;
        } catch (NoSuchFileException e) {
            err.println("ctquery: no such file: " + file);
            return NO_INPUT;
        } catch (IOException e) {
            err.println("ctquery: cannot read " + file + ": " + e.getMessage());
            return NO_INPUT;
        }
        try {
            if (unread) {
                // Its length is unknown (the rest was never read), but it is over the limit.
                throw new QueryException(
                        ErrorCode.INPUT_TOO_LARGE,
                        Span.at(1, 1),
                        "query is more than " + limit + " characters long, the limit is " + limit);
            }
            Query query = new QueryParser().parse(QueryText.decode(bytes));
            out.print(json ? QueryJson.toJson(query) + "\n" : QueryPrinter.print(query));
            return OK;
        } catch (QueryException e) {
            for (QueryError error : e.errors()) {
                err.println(error.formatted());
            }
            if (json) {
                out.println(QueryJson.toJson(e.errors()));
            }
            return QUERY_ERROR;
        } catch (RuntimeException e) {
            err.println("ctquery: internal error (a defect of ctquery; please report it with the query): " + e);
            return INTERNAL;
        }
    }
}

package org.cloudtalk.lang;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Test helper: the example queries shipped under {@code examples/}. */
public final class Queries {
    private static final Path EXAMPLES = Path.of("..", "examples");

    private Queries() {}

    public static String example(String name) {
        try {
            return Files.readString(EXAMPLES.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

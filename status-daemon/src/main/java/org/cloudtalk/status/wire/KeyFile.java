package org.cloudtalk.status.wire;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** Reads the deployment key: the file's bytes less trailing whitespace (editors add a newline), at least 16 bytes. */
public final class KeyFile {
    private KeyFile() {}

    /**
     * @throws IOException if the file cannot be read
     * @throws IllegalArgumentException if the key is too short
     */
    public static byte[] read(Path file) throws IOException {
        byte[] content = Files.readAllBytes(file);
        int length = content.length;
        while (length > 0 && Character.isWhitespace(content[length - 1])) {
            length--;
        }
        if (length < MessageAuthenticator.MIN_KEY_LENGTH) {
            throw new IllegalArgumentException(
                    "the key must be at least " + MessageAuthenticator.MIN_KEY_LENGTH + " bytes");
        }
        return Arrays.copyOf(content, length);
    }
}

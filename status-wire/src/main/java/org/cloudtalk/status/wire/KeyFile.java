package org.cloudtalk.status.wire;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/** Reads the deployment key: the file's bytes less trailing whitespace (editors add a newline), at least 16 bytes. */
public final class KeyFile {
    /** Far beyond any useful HMAC key; a file larger than this is not a key (/dev/zero would fill the heap). */
    private static final int MAX_KEY_BYTES = 4096;

    private KeyFile() {}

    /**
     * @throws IOException if the file cannot be read; the message says why in words, without the path
     * @throws IllegalArgumentException if the key is too short
     */
    public static byte[] read(Path file) throws IOException {
        byte[] content;
        try (InputStream in = Files.newInputStream(file)) {
            content = in.readNBytes(MAX_KEY_BYTES + 1);
        } catch (NoSuchFileException e) {
            throw new IOException("no such file", e);
        } catch (AccessDeniedException e) {
            throw new IOException("permission denied", e);
        } catch (FileSystemException e) {
            throw new IOException(e.getReason() == null ? "cannot read it" : e.getReason(), e);
        }
        int length = content.length;
        while (length > 0 && Character.isWhitespace(content[length - 1])) {
            length--;
        }
        if (content.length > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("the key must be at most " + MAX_KEY_BYTES + " bytes");
        }
        if (length < MessageAuthenticator.MIN_KEY_LENGTH) {
            throw new IllegalArgumentException(
                    "the key must be at least " + MessageAuthenticator.MIN_KEY_LENGTH + " bytes");
        }
        return Arrays.copyOf(content, length);
    }
}

package org.cloudtalk.common.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads an input file a user names (a topology, a list of hosts) as UTF-8 text of bounded size: a file that is too
 * large (or endless, like {@code /dev/zero}) or not UTF-8 is an error that says so, with the first line that is not.
 */
public final class TextFile {
    /** The largest input file read: a million-host topology is ~30 MB. */
    public static final int MAX_BYTES = 64 << 20;

    private TextFile() {}

    /** What is wrong with a file's content: the message says which line, or that it is too large. */
    public static final class BadTextException extends Exception {
        BadTextException(String message) {
            super(message);
        }
    }

    /**
     * The file's text, without a leading byte-order mark.
     *
     * @throws IOException when it cannot be read
     * @throws BadTextException when it is over {@link #MAX_BYTES} or not UTF-8
     */
    public static String read(Path file) throws IOException, BadTextException {
        return read(file, MAX_BYTES);
    }

    /** As {@link #read(Path)}, for files of at most {@code maxBytes} (a whole number of MB). */
    public static String read(Path file, int maxBytes) throws IOException, BadTextException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(maxBytes + 1);
        }
        if (bytes.length > maxBytes) {
            throw new BadTextException("larger than " + (maxBytes >> 20) + " MB");
        }
        String text = utf8(bytes);
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    private static String utf8(byte[] bytes) throws BadTextException {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            int line = 1;
            int start = 0;
            for (int i = 0; i <= bytes.length; i++) {
                // Lines end as the parsers end them: LF, CR LF, or a lone CR.
                boolean lineEnd = i == bytes.length
                        || bytes[i] == '\n'
                        || (bytes[i] == '\r' && (i + 1 == bytes.length || bytes[i + 1] != '\n'));
                if (lineEnd) {
                    try {
                        StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes, start, i - start));
                    } catch (CharacterCodingException bad) {
                        break;
                    }
                    line++;
                    start = i + 1;
                }
            }
            throw new BadTextException("line " + line + ": not valid UTF-8 text");
        }
    }
}

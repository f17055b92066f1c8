package org.cloudtalk.itchy.examples;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Synthetic inputs for the examples: lineitem-like rows (key cardinality adjustable), sales lines, and text. */
public final class DataGenerator {
    private static final String[] FLAGS = {"A", "N", "R"};
    private static final String[] STATUSES = {"F", "O"};
    private static final String[] MODES = {"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"};
    private static final String[] INSTRUCTIONS = {"COLLECT COD", "DELIVER IN PERSON", "NONE", "TAKE BACK RETURN"};
    private static final String[] SYLLABLES = {"ka", "lo", "mi", "ne", "ru", "so", "ta", "vi", "zo", "pe", "qu", "da"};

    private DataGenerator() {}

    /**
     * How many distinct values the grouping columns take: {@code parts} partkeys (Job1's key) and {@code returnFlags}
     * return flags (Job2 groups by return flag and one of two line statuses). The chapter varies key cardinality with
     * its own generator in the same way (§5.7.1).
     */
    public record Cardinality(int parts, int returnFlags) {
        /** TPC-H's: 200,000 parts at scale factor 1, return flags A, N and R. */
        public static final Cardinality TPCH = new Cardinality(200_000, 3);

        public Cardinality {
            if (parts < 1 || returnFlags < 1) {
                throw new IllegalArgumentException("cardinalities must be positive: " + parts + ", " + returnFlags);
            }
        }
    }

    /** Lineitem rows with TPC-H's cardinalities. */
    public static long lineitem(FileSystem fs, Path file, int rows, long seed) throws IOException {
        return lineitem(fs, file, rows, seed, Cardinality.TPCH);
    }

    /** Lineitem rows whose grouping columns take the given numbers of distinct values. */
    public static long lineitem(FileSystem fs, Path file, int rows, long seed, Cardinality cardinality)
            throws IOException {
        Random random = new Random(seed);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < rows; i++) {
            out.append(seed * 1_000_000 + i)
                    .append('|')
                    .append(random.nextInt(cardinality.parts()))
                    .append('|')
                    .append(1 + random.nextInt(50))
                    .append('|')
                    .append(100 + random.nextInt(10_000_000))
                    .append('|')
                    .append(String.format(java.util.Locale.ROOT, "0.%02d", random.nextInt(11)))
                    .append('|')
                    .append(String.format(java.util.Locale.ROOT, "0.%02d", random.nextInt(9)))
                    .append('|')
                    .append(returnFlag(random.nextInt(cardinality.returnFlags()), cardinality.returnFlags()))
                    .append('|')
                    .append(STATUSES[random.nextInt(STATUSES.length)])
                    .append('|')
                    .append(String.format(
                            java.util.Locale.ROOT,
                            "199%d-%02d-%02d",
                            random.nextInt(8),
                            1 + random.nextInt(12),
                            1 + random.nextInt(28)))
                    .append('|')
                    .append(INSTRUCTIONS[random.nextInt(INSTRUCTIONS.length)])
                    .append('|')
                    .append(MODES[random.nextInt(MODES.length)])
                    .append('|')
                    .append(words(random, 3 + random.nextInt(5)))
                    .append('\n');
        }
        return write(fs, file, out);
    }

    /** {@code id,category,price} lines over {@code categories} categories. */
    public static long sales(FileSystem fs, Path file, int rows, int categories, long seed) throws IOException {
        Random random = new Random(seed);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < rows; i++) {
            out.append(seed * 1_000_000 + i)
                    .append(',')
                    .append("cat")
                    .append(random.nextInt(categories))
                    .append(',')
                    .append(1 + random.nextInt(1000))
                    .append('\n');
        }
        return write(fs, file, out);
    }

    /** Text lines of made-up words; a larger vocabulary means more distinct keys. */
    public static long text(FileSystem fs, Path file, int lines, int vocabulary, long seed) throws IOException {
        Random random = new Random(seed);
        String[] words = new String[vocabulary];
        for (int i = 0; i < vocabulary; i++) {
            words[i] = word(new Random(i * 7919L + 1));
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            int count = 1 + random.nextInt(12);
            for (int w = 0; w < count; w++) {
                // Skewed towards frequent words, like natural text.
                int index = (int) Math.min(vocabulary - 1, Math.abs(random.nextGaussian()) * vocabulary / 3);
                out.append(w == 0 ? "" : " ").append(words[index]);
            }
            out.append('\n');
        }
        return write(fs, file, out);
    }

    private static String returnFlag(int index, int flags) {
        return flags <= FLAGS.length ? FLAGS[index] : "R" + index;
    }

    private static String words(Random random, int count) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < count; i++) {
            out.append(i == 0 ? "" : " ").append(word(random));
        }
        return out.toString();
    }

    private static String word(Random random) {
        StringBuilder out = new StringBuilder();
        int syllables = 2 + random.nextInt(3);
        for (int i = 0; i < syllables; i++) {
            out.append(SYLLABLES[random.nextInt(SYLLABLES.length)]);
        }
        return out.toString();
    }

    private static long write(FileSystem fs, Path file, StringBuilder text) throws IOException {
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        try (OutputStream out = fs.create(file, false)) {
            out.write(bytes);
        }
        return bytes.length;
    }
}

package org.cloudtalk.testbed.hadoop;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One file an HDFS writer wrote: its path, size, when the write started (epoch ms), how long create-write-close took,
 * the DataNode addresses holding each of its blocks as the NameNode reported them after the close, and the error
 * if the write failed (empty if it succeeded).
 */
public record FileWrite(
        String path, long bytes, long startMillis, double seconds, List<List<String>> blocks, String error) {
    public FileWrite {
        requireNonNull(path, "path is null");
        requireNonNull(error, "error is null");
        blocks = blocks.stream().map(List::copyOf).toList();
    }

    static final String CSV_HEADER = "path,bytes,start_ms,seconds,replicas,error";

    /** One CSV line: blocks separated by '|', a block's replicas by ' '; the error without commas or line breaks. */
    String toCsv() {
        String replicas = String.join(
                "|", blocks.stream().map(block -> String.join(" ", block)).toList());
        return String.join(
                ",",
                path,
                Long.toString(bytes),
                Long.toString(startMillis),
                String.format(java.util.Locale.ROOT, "%.6f", seconds),
                replicas,
                error.replaceAll("[,\r\n]+", " "));
    }

    static FileWrite fromCsv(String line) {
        String[] fields = line.split(",", -1);
        if (fields.length != 6) {
            throw new IllegalArgumentException("expected 6 fields in '" + line + "'");
        }
        List<List<String>> blocks = fields[4].isEmpty()
                ? List.of()
                : java.util.Arrays.stream(fields[4].split("\\|"))
                        .map(block -> List.of(block.split(" ")))
                        .toList();
        return new FileWrite(
                fields[0],
                Long.parseLong(fields[1]),
                Long.parseLong(fields[2]),
                Double.parseDouble(fields[3]),
                blocks,
                fields[5]);
    }

    public boolean ok() {
        return error.isEmpty();
    }

    /** Every replica of every block, by DataNode address. */
    public List<String> replicas() {
        return blocks.stream().flatMap(List::stream).toList();
    }
}

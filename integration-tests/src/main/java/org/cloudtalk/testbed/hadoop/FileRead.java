package org.cloudtalk.testbed.hadoop;

import static java.util.Objects.requireNonNull;

import java.util.Locale;

/**
 * One file an HDFS reader read: its path, the bytes read, when the read started (epoch ms), how long open-read-close
 * took, the address of the DataNode that served its last block (the files of the testbed's experiments are one
 * block), and the error if the read failed (empty if it succeeded).
 */
public record FileRead(String path, long bytes, long startMillis, double seconds, String dataNode, String error) {
    public FileRead {
        requireNonNull(path, "path is null");
        requireNonNull(dataNode, "dataNode is null");
        requireNonNull(error, "error is null");
    }

    static final String CSV_HEADER = "path,bytes,start_ms,seconds,datanode,error";

    /** One CSV line; the error without commas or line breaks. */
    String toCsv() {
        return String.join(
                ",",
                path,
                Long.toString(bytes),
                Long.toString(startMillis),
                String.format(Locale.ROOT, "%.6f", seconds),
                dataNode,
                error.replaceAll("[,\r\n]+", " "));
    }

    static FileRead fromCsv(String line) {
        String[] fields = line.split(",", -1);
        if (fields.length != 6) {
            throw new IllegalArgumentException("expected 6 fields in '" + line + "'");
        }
        return new FileRead(
                fields[0],
                Long.parseLong(fields[1]),
                Long.parseLong(fields[2]),
                Double.parseDouble(fields[3]),
                fields[4],
                fields[5]);
    }

    public boolean ok() {
        return error.isEmpty();
    }
}

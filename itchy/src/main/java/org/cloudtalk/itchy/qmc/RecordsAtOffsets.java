package org.cloudtalk.itchy.qmc;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.util.LineReader;

/**
 * Reads the records of one file that start at given offsets, in ascending order, as the first job's
 * {@code LineRecordReader} read them: with the job's {@code textinputformat.record.delimiter}, without a UTF-8 byte
 * order mark at the start of the file, and, in a compressed file, counting offsets in uncompressed bytes. Across a gap
 * larger than {@link #MAX_SKIP} in an uncompressed file it seeks, else it reads forward through the records in
 * between with Hadoop's own {@link LineReader} (sequential reads are cheap); a compressed file is read forward from its
 * start.
 */
final class RecordsAtOffsets implements Closeable {
    private static final long MAX_SKIP = 256 * 1024;
    private static final int BUFFER = 64 * 1024;

    private final Path path;
    private final FSDataInputStream in;
    /** What records are read from: the file, or its decompressed stream. */
    private final InputStream source;

    private final Decompressor decompressor;
    private final byte[] delimiter;
    /** The offset of the next byte {@link #lines} returns; -1 before the first read. */
    private long position = -1;

    private LineReader lines;
    private final Text skipped = new Text();

    RecordsAtOffsets(Configuration conf, Path path, byte[] delimiter) throws IOException {
        this.path = path;
        this.delimiter = delimiter;
        this.in = path.getFileSystem(conf).open(path);
        CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(path);
        if (codec == null) {
            decompressor = null;
            source = in;
            return;
        }
        decompressor = CodecPool.getDecompressor(codec);
        try {
            source = codec.createInputStream(in, decompressor);
        } catch (IOException | RuntimeException e) {
            CodecPool.returnDecompressor(decompressor);
            in.close();
            throw e;
        }
        position = 0;
    }

    /** Reads the record starting at {@code offset} into {@code value}. */
    void read(long offset, Text value) throws IOException {
        if (source == in && (position < 0 || offset < position || offset - position > MAX_SKIP)) {
            in.seek(offset);
            lines = null; // its buffer holds bytes from before the seek
            position = offset;
        }
        if (offset < position) {
            throw new IOException("relevant offset " + offset + " before " + position + " in compressed " + path);
        }
        if (lines == null) {
            lines = delimiter == null ? new LineReader(source, BUFFER) : new LineReader(source, BUFFER, delimiter);
        }
        while (position < offset) {
            position += count(lines.readLine(skipped, 0)); // counted, not copied
        }
        position += count(lines.readLine(value));
        if (offset == 0) {
            skipByteOrderMark(value);
        }
    }

    private int count(int bytes) throws IOException {
        if (bytes == 0) {
            throw new IOException("relevant offset beyond the end of " + path);
        }
        return bytes;
    }

    /** As LineRecordReader: a UTF-8 byte order mark before a file's first record is not part of it. */
    private static void skipByteOrderMark(Text value) {
        byte[] bytes = value.getBytes();
        if (value.getLength() >= 3
                && (bytes[0] & 0xFF) == 0xEF
                && (bytes[1] & 0xFF) == 0xBB
                && (bytes[2] & 0xFF) == 0xBF) {
            value.set(Arrays.copyOfRange(bytes, 3, value.getLength()));
        }
    }

    @Override
    public void close() throws IOException {
        try {
            source.close();
            in.close();
        } finally {
            if (decompressor != null) {
                CodecPool.returnDecompressor(decompressor);
            }
        }
    }
}

package org.cloudtalk.itchy.qmc;

import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.SplittableCompressionCodec;

/**
 * Which inputs QMC can re-read record by record. It keeps each record's offset as the job's record reader gave it and
 * reads the record there again later; for a file compressed with a splittable codec (bzip2) those offsets are
 * positions in the compressed stream, shared by many records, so no record can be found again by its offset.
 */
public final class QmcInputs {
    private QmcInputs() {}

    /** Why QMC cannot re-read one of the files, if it cannot. */
    public static Optional<String> cannotReRead(Configuration conf, List<Path> files) {
        CompressionCodecFactory codecs = new CompressionCodecFactory(conf);
        for (Path file : files) {
            CompressionCodec codec = codecs.getCodec(file);
            if (codec instanceof SplittableCompressionCodec) {
                return Optional.of("QMC cannot re-read records of " + file + " by their offsets: it is compressed with "
                        + codec.getClass().getSimpleName() + ", whose record offsets are compressed positions");
            }
        }
        return Optional.empty();
    }
}

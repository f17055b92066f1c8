package org.cloudtalk.itchy.decision;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.cloudtalk.itchy.ItchyConf;
import org.cloudtalk.itchy.ItchyException;
import org.cloudtalk.itchy.ItchyMode;
import org.cloudtalk.itchy.qmc.QmcInputs;
import org.cloudtalk.itchy.technique.Driver;
import org.cloudtalk.itchy.technique.UserJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A first job's technique and why: {@code itchy.mode} as asked, or in auto the decision model's choice from a sample
 * of the job's map; QMC only over input it can re-read (auto then falls back to MO), Merge only with a merge function.
 *
 * @param decision why, as the run's report and the job record give it
 */
public record TechniqueChoice(ItchyMode mode, String decision) {
    private static final Logger log = LoggerFactory.getLogger(TechniqueChoice.class);
    /** Records each mapped alone to check QMC's premise: one new mapper instance each. */
    private static final int RECORD_LOCALITY_RECORDS = 100;

    /**
     * Chooses the technique of {@code job}'s first job over {@code files}, timing the map sample as a phase of
     * {@code driver}'s run.
     *
     * @throws ItchyException if the technique asked for cannot run this job or input
     */
    public static TechniqueChoice of(Driver driver, UserJob job, List<Path> files)
            throws IOException, InterruptedException {
        Configuration conf = driver.configuration();
        ItchyMode requested = ItchyMode.parse(conf.get(ItchyConf.MODE, "auto"));
        boolean mergeGiven = job.merge() != null;
        DecisionModel.Sample sample = null;
        int sampleRecords = conf.getInt(ItchyConf.SAMPLE_RECORDS, 10_000);
        Path sampled = requested == ItchyMode.OFF ? files.get(0) : firstWithRecords(conf, files);
        if (requested != ItchyMode.OFF) {
            long sampleStart = System.nanoTime();
            MapSampler.Sampled sampledMap = MapSampler.sampleDeterministic(conf, job.mapper(), sampled, sampleRecords);
            driver.phase("map sample", sampleStart);
            sample = sampledMap.sample();
            Optional<String> grouped = KeyEquality.problem(conf, job.mapKey(), sampledMap.keys());
            if (grouped.isPresent()) {
                throw new ItchyException(grouped.get() + ": its increments would not equal a recompute; run it with"
                        + " itchy.mode=off");
            }
        }
        ItchyMode mode;
        String decision;
        String warning = "";
        if (requested == ItchyMode.AUTO) {
            double threshold = conf.getDouble(ItchyConf.QMC_THRESHOLD, DecisionModel.DEFAULT_THRESHOLD);
            mode = DecisionModel.decide(sample, mergeGiven, threshold);
            decision = "decision model: " + sample + ", merge function " + (mergeGiven ? "given" : "none")
                    + ", threshold " + threshold + " B/ms -> " + mode;
            warning = DecisionModel.cardinalityWarning(sample, mergeGiven);
        } else {
            mode = requested;
            decision =
                    "itchy.mode=" + mode.name().toLowerCase(Locale.ROOT) + (sample == null ? "" : " (" + sample + ")");
        }
        Optional<String> notReReadable = mode == ItchyMode.QMC ? QmcInputs.cannotReRead(conf, files) : Optional.empty();
        if (notReReadable.isPresent()) {
            if (requested != ItchyMode.AUTO) {
                throw new ItchyException("itchy.mode=qmc: " + notReReadable.get()
                        + "; use itchy.mode=mo or auto, or uncompressed or gzip input");
            }
            mode = ItchyMode.MO;
            decision += "; but " + notReReadable.get() + " -> MO";
        }
        if (mode == ItchyMode.QMC) {
            long checkStart = System.nanoTime();
            Optional<String> notRecordLocal = RecordLocality.problem(
                    conf, job.mapper(), sampled, Math.min(sampleRecords, RECORD_LOCALITY_RECORDS));
            driver.phase("record check", checkStart);
            if (notRecordLocal.isPresent()) {
                if (requested != ItchyMode.AUTO) {
                    throw new ItchyException("itchy.mode=qmc: " + notRecordLocal.get() + "; QMC re-maps single"
                            + " records, and its increments would not equal a recompute: use itchy.mode=mo or auto");
                }
                mode = ItchyMode.MO;
                decision += "; but " + notRecordLocal.get() + " -> MO";
            }
        }
        if (mode == ItchyMode.MERGE && !mergeGiven) {
            throw new ItchyException(
                    "itchy.mode=merge needs a merge function: ItchyJob.setMerge or " + ItchyConf.MERGE_CLASS);
        }
        if (!warning.isEmpty()) {
            decision += warning;
            log.warn("itchy {}: {}", job.name(), decision);
        } else {
            log.info("itchy {}: first job with {} ({})", job.name(), mode, decision);
        }
        return new TechniqueChoice(mode, decision);
    }

    /** The first file with anything in it: a sample of an empty first file would show nothing. */
    private static Path firstWithRecords(Configuration conf, List<Path> files) throws IOException {
        for (Path file : files) {
            if (file.getFileSystem(conf).getFileStatus(file).getLen() > 0) {
                return file;
            }
        }
        return files.get(0);
    }
}

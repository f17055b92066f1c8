package org.cloudtalk.itchy;

import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.cloudtalk.itchy.store.Generations;

/** What ItchyJob tells its tasks: technique, increment, datasets and where earlier outputs are. */
record TaskSettings(
        ItchyMode mode,
        boolean stores,
        byte[] signature,
        int increment,
        int generation,
        Generations visible,
        Map<String, Integer> datasetIds,
        Set<Integer> newDatasets,
        Map<Integer, String> outputDirs,
        int outputDataset) {
    static TaskSettings of(Configuration conf) {
        Map<String, Integer> datasetIds = new HashMap<>();
        for (String entry : conf.getTrimmedStrings(ItchyConf.DATASETS)) {
            int equals = entry.indexOf('=');
            datasetIds.put(
                    new Path(entry.substring(equals + 1)).toUri().getPath(),
                    Integer.parseInt(entry.substring(0, equals)));
        }
        Set<Integer> newDatasets = new HashSet<>();
        for (String id : conf.getTrimmedStrings(ItchyConf.NEW_DATASETS)) {
            newDatasets.add(Integer.parseInt(id));
        }
        Map<Integer, String> outputDirs = new HashMap<>();
        for (String entry : conf.getTrimmedStrings(ItchyConf.OUTPUT_DIRS)) {
            int equals = entry.indexOf('=');
            outputDirs.put(Integer.parseInt(entry.substring(0, equals)), entry.substring(equals + 1));
        }
        return new TaskSettings(
                ItchyMode.valueOf(conf.get(ItchyConf.TASK_MODE, "OFF")),
                conf.getBoolean(ItchyConf.STORES, true),
                HexFormat.of().parseHex(conf.get(ItchyConf.SIGNATURE, "0000000000000000")),
                conf.getInt(ItchyConf.INCREMENT, 0),
                conf.getInt(ItchyConf.GENERATION, 0),
                Generations.parse(conf.getTrimmedStrings(ItchyConf.VISIBLE)),
                datasetIds,
                newDatasets,
                outputDirs,
                conf.getInt(ItchyConf.OUTPUT_DATASET, 0));
    }

    /** The dataset id of an input file, or -1 if the job did not register it. */
    int datasetOf(Path file) {
        return datasetIds.getOrDefault(file.toUri().getPath(), -1);
    }

    /** QMC values carry their records' offsets through the shuffle only in jobs that store them. */
    boolean carriesOffsets() {
        return mode == ItchyMode.QMC && stores;
    }

    boolean incremental() {
        return increment > 0;
    }
}

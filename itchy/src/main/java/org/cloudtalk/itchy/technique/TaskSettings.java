package org.cloudtalk.itchy.technique;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.StringUtils;
import org.cloudtalk.itchy.ItchyMode;
import org.cloudtalk.itchy.store.Generations;

/** What ItchyJob tells its tasks: technique, increment, datasets and where earlier outputs are. */
public record TaskSettings(
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
    public static TaskSettings of(Configuration conf) {
        Map<String, Integer> datasetIds = new HashMap<>();
        for (String entry : list(conf, TaskKeys.DATASETS)) {
            int equals = entry.indexOf('=');
            datasetIds.put(
                    new Path(entry.substring(equals + 1)).toUri().getPath(),
                    Integer.parseInt(entry.substring(0, equals)));
        }
        Set<Integer> newDatasets = new HashSet<>();
        for (String id : list(conf, TaskKeys.NEW_DATASETS)) {
            newDatasets.add(Integer.parseInt(id));
        }
        Map<Integer, String> outputDirs = new HashMap<>();
        for (String entry : list(conf, TaskKeys.OUTPUT_DIRS)) {
            int equals = entry.indexOf('=');
            outputDirs.put(Integer.parseInt(entry.substring(0, equals)), entry.substring(equals + 1));
        }
        return new TaskSettings(
                ItchyMode.valueOf(conf.get(TaskKeys.TASK_MODE, "OFF")),
                conf.getBoolean(TaskKeys.STORES, true),
                HexFormat.of().parseHex(conf.get(TaskKeys.SIGNATURE, "0000000000000000")),
                conf.getInt(TaskKeys.INCREMENT, 0),
                conf.getInt(TaskKeys.GENERATION, 0),
                Generations.parse(conf.getTrimmedStrings(TaskKeys.VISIBLE)),
                datasetIds,
                newDatasets,
                outputDirs,
                conf.getInt(TaskKeys.OUTPUT_DATASET, 0));
    }

    /**
     * Sets a list of entries that may hold paths: escaped as {@code FileInputFormat} escapes its input paths, so that
     * any path, commas and surrounding spaces included, comes back as it was ({@code Configuration.setStrings} would
     * split it at its commas).
     */
    static void setList(Configuration conf, String key, List<String> entries) {
        conf.set(key, entries.stream().map(StringUtils::escapeString).collect(Collectors.joining(",")));
    }

    /** The entries {@link #setList} set. */
    static List<String> list(Configuration conf, String key) {
        return Arrays.stream(StringUtils.split(conf.get(key, "")))
                .map(StringUtils::unEscapeString)
                .toList();
    }

    /** The dataset id of an input file, or -1 if the job did not register it. */
    public int datasetOf(Path file) {
        return datasetIds.getOrDefault(file.toUri().getPath(), -1);
    }

    /** QMC values carry their records' offsets through the shuffle only in jobs that store them. */
    public boolean carriesOffsets() {
        return mode == ItchyMode.QMC && stores;
    }

    public boolean incremental() {
        return increment > 0;
    }
}

package org.cloudtalk.itchy.store;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.cloudtalk.itchy.ItchyMode;

/**
 * What Itchy remembers of a job between runs: its signature and technique, the input datasets it has seen (base and
 * appended, each with the length and checksum it had), the output of the first job and of every increment, and the
 * generation each committed run stored its cells under (index 0: the first job; so the committed increment is the last
 * index); {@code multiEmit}: whether any record of a committed run emitted several keys (QMC then post-filters the
 * records it re-reads); {@code keys} bounds from above how many rows the job has in HBase (the rows each run
 * wrote, added up), to choose between looking keys up and scanning. Stored in one HBase cell by {@link ItchyStore}.
 */
public record JobRecord(
        String name,
        String signature,
        ItchyMode mode,
        Generations generations,
        boolean multiEmit,
        long keys,
        String decision,
        List<Dataset> datasets,
        List<String> outputs) {
    /** An input file: its id (offsets refer to it), path, and length and checksum when it was processed. */
    public record Dataset(int id, String path, long length, String checksum, int increment) {}

    public JobRecord {
        requireNonNull(name, "name is null");
        requireNonNull(signature, "signature is null");
        requireNonNull(mode, "mode is null");
        requireNonNull(decision, "decision is null");
        requireNonNull(generations, "generations is null");
        datasets = List.copyOf(datasets);
        outputs = List.copyOf(outputs);
    }

    String encode() {
        StringBuilder out = new StringBuilder();
        out.append("name\t").append(name).append('\n');
        out.append("signature\t").append(signature).append('\n');
        out.append("mode\t").append(mode).append('\n');
        out.append("generations\t").append(generations.encode()).append('\n');
        out.append("multiEmit\t").append(multiEmit).append('\n');
        out.append("keys\t").append(keys).append('\n');
        out.append("decision\t").append(decision.replace('\n', ' ')).append('\n');
        for (Dataset dataset : datasets) {
            out.append("dataset\t")
                    .append(dataset.id())
                    .append('\t')
                    .append(dataset.length())
                    .append('\t')
                    .append(dataset.checksum())
                    .append('\t')
                    .append(dataset.increment())
                    .append('\t')
                    .append(dataset.path())
                    .append('\n');
        }
        for (String output : outputs) {
            out.append("output\t").append(output).append('\n');
        }
        return out.toString();
    }

    static JobRecord decode(String text) {
        String name = null;
        String signature = null;
        ItchyMode mode = null;
        Generations generations = null;
        boolean multiEmit = false;
        long keys = 0;
        String decision = "";
        List<Dataset> datasets = new ArrayList<>();
        List<String> outputs = new ArrayList<>();
        for (String line : text.split("\n")) {
            String[] fields = line.split("\t", 6);
            switch (fields[0]) {
                case "name" -> name = fields[1];
                case "signature" -> signature = fields[1];
                case "mode" -> mode = ItchyMode.valueOf(fields[1]);
                case "generations" -> generations = Generations.parse(fields[1].split(","));
                case "multiEmit" -> multiEmit = Boolean.parseBoolean(fields[1]);
                case "keys" -> keys = Long.parseLong(fields[1]);
                case "decision" -> decision = fields.length > 1 ? fields[1] : "";
                case "dataset" -> datasets.add(new Dataset(
                        Integer.parseInt(fields[1]),
                        fields[5],
                        Long.parseLong(fields[2]),
                        fields[3],
                        Integer.parseInt(fields[4])));
                case "output" -> outputs.add(fields[1]);
                default -> {}
            }
        }
        return new JobRecord(name, signature, mode, generations, multiEmit, keys, decision, datasets, outputs);
    }

    /** The number of the committed increment (0: only the first job). */
    public int committed() {
        return generations.committed().size() - 1;
    }

    /** The generations visible once a run that stored its cells under {@code generation} is committed. */
    public Generations plus(int generation) {
        List<Integer> next = new ArrayList<>(generations.committed());
        next.add(generation);
        return new Generations(next);
    }

    public int nextDatasetId() {
        return datasets.stream().mapToInt(Dataset::id).max().orElse(0) + 1;
    }
}

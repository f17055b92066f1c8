package org.cloudtalk.hadoop.mapreduce;

import static java.util.Objects.requireNonNull;
import static org.cloudtalk.lang.build.QueryBuilder.bytes;
import static org.cloudtalk.lang.build.QueryBuilder.disk;
import static org.cloudtalk.lang.build.QueryBuilder.variable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.cloudtalk.client.QueryResult;
import org.cloudtalk.hadoop.hint.Fallback;
import org.cloudtalk.hadoop.hint.HintClient;
import org.cloudtalk.hadoop.hint.HostEndpoints;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.build.QueryBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks CloudTalk how fast each split host can read from its disk (one query per job: a split-sized read from the
 * disk of X, X over every split host, with each candidate's score) and drops the slow hosts from the splits'
 * locations. A host is slow when its score is below a fraction of the best host's; a split whose every location is
 * slow keeps its fastest one.
 *
 * <p>Only splits of Hadoop's own {@link FileSplit} and {@link CombineFileSplit} classes are rewritten (a subclass
 * may carry state a copy would lose); others keep their locations and count as overruled in the metrics.
 */
final class SlowHosts {
    private static final Logger log = LoggerFactory.getLogger(SlowHosts.class);
    private static final String VARIABLE = "X";

    private final HintClient hints;
    private final double slowFraction;
    private final HostEndpoints endpoints = new HostEndpoints();

    SlowHosts(HintClient hints, double slowFraction) {
        this.hints = requireNonNull(hints, "hints is null");
        this.slowFraction = slowFraction;
    }

    /** The splits, with slow hosts dropped from their locations; the same splits without a usable answer. */
    List<InputSplit> avoid(List<InputSplit> splits) throws IOException, InterruptedException {
        Map<String, String> endpointOfLocation = new LinkedHashMap<>();
        long splitBytes = 1;
        for (InputSplit split : splits) {
            for (String location : split.getLocations()) {
                endpoints.of(location).ifPresent(endpoint -> endpointOfLocation.put(location, endpoint));
            }
            splitBytes = Math.max(splitBytes, split.getLength());
        }
        Set<String> hosts = new TreeSet<>(endpointOfLocation.values());
        if (hosts.size() < 2) {
            return splits;
        }
        Optional<Map<String, Double>> scores = scores(hosts, splitBytes);
        if (scores.isEmpty()) {
            return splits;
        }
        Set<String> slow = slow(scores.get());
        hints.metrics().answerUsed();
        if (slow.isEmpty()) {
            return splits;
        }
        List<InputSplit> placed = new ArrayList<>(splits.size());
        int changed = 0;
        for (InputSplit split : splits) {
            InputSplit kept = keepFast(split, endpointOfLocation, slow, scores.get());
            changed += kept == split ? 0 : 1;
            placed.add(kept);
        }
        log.info(
                "CloudTalk: {} of {} split hosts have slow disks {}; {} of {} splits no longer name them",
                slow.size(),
                hosts.size(),
                slow,
                changed,
                splits.size());
        return placed;
    }

    private Optional<Map<String, Double>> scores(Set<String> hosts, long splitBytes) {
        Query query;
        try {
            QueryBuilder builder = new QueryBuilder().variable(VARIABLE, List.copyOf(hosts));
            builder.flow("f1", disk(), variable(VARIABLE)).size(bytes(splitBytes));
            query = builder.build();
        } catch (QueryException e) {
            hints.fallback(Fallback.ERROR, "cannot build the map query: " + e.getMessage());
            return Optional.empty();
        }
        Optional<QueryResult> answer = hints.ask(query);
        if (answer.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Double> scores = answer.get().candidateScores().get(VARIABLE);
        // Exactly the split hosts: a score for a host that was not asked about (a server's mistake) would set the bar
        // every split host is measured against.
        if (scores == null || !scores.keySet().equals(hosts)) {
            hints.fallback(Fallback.BAD_ANSWER, "the answer scores " + scores + ", not the split hosts " + hosts);
            return Optional.empty();
        }
        return Optional.of(scores);
    }

    /**
     * Hosts scoring below the fraction of the best finite score. Unconstrained hosts (+∞: no known limit) are never
     * slow, and do not make every constrained host look slow either.
     */
    private Set<String> slow(Map<String, Double> scores) {
        double best = scores.values().stream()
                .filter(Double::isFinite)
                .mapToDouble(Double::doubleValue)
                .max()
                .orElse(0);
        Set<String> slow = new TreeSet<>();
        scores.forEach((host, score) -> {
            if (Double.isFinite(score) && score < slowFraction * best) {
                slow.add(host);
            }
        });
        return slow;
    }

    private InputSplit keepFast(
            InputSplit split, Map<String, String> endpointOfLocation, Set<String> slow, Map<String, Double> scores)
            throws IOException, InterruptedException {
        String[] locations = split.getLocations();
        Set<String> fast = new LinkedHashSet<>();
        String fastestSlow = null;
        for (String location : locations) {
            String endpoint = endpointOfLocation.get(location);
            if (endpoint == null || !slow.contains(endpoint)) {
                fast.add(location);
            } else if (fastestSlow == null || scores.get(endpoint) > scores.get(endpointOfLocation.get(fastestSlow))) {
                fastestSlow = location;
            }
        }
        if (fast.isEmpty()) {
            fast.add(fastestSlow);
        }
        if (fast.size() == locations.length) {
            return split;
        }
        Optional<InputSplit> copy = withLocations(split, fast.toArray(String[]::new));
        hints.metrics().chose(copy.isPresent());
        return copy.orElse(split);
    }

    private static Optional<InputSplit> withLocations(InputSplit split, String[] locations) throws IOException {
        if (split.getClass() == FileSplit.class) {
            FileSplit file = (FileSplit) split;
            return Optional.of(new FileSplit(file.getPath(), file.getStart(), file.getLength(), locations));
        }
        if (split.getClass() == CombineFileSplit.class) {
            CombineFileSplit combined = (CombineFileSplit) split;
            return Optional.of(new CombineFileSplit(
                    combined.getPaths(), combined.getStartOffsets(), combined.getLengths(), locations));
        }
        return Optional.empty();
    }
}

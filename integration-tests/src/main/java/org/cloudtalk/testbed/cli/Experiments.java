package org.cloudtalk.testbed.cli;

import java.util.Iterator;
import java.util.List;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.experiment.BusyWriter;
import org.cloudtalk.testbed.experiment.Capacity;
import org.cloudtalk.testbed.experiment.Experiment;
import org.cloudtalk.testbed.experiment.HdfsDisk;
import org.cloudtalk.testbed.experiment.HdfsFault;
import org.cloudtalk.testbed.experiment.HdfsReaction;
import org.cloudtalk.testbed.experiment.HdfsRead;
import org.cloudtalk.testbed.experiment.HdfsWrite;
import org.cloudtalk.testbed.experiment.Incast;
import org.cloudtalk.testbed.experiment.Oscillation;
import org.cloudtalk.testbed.experiment.QueryUnderLoad;
import org.cloudtalk.testbed.experiment.ReducePlacement;
import org.cloudtalk.testbed.experiment.SamplingAtScale;
import org.cloudtalk.testbed.experiment.SlowDisks;
import org.cloudtalk.testbed.experiment.SolrReplicas;
import org.cloudtalk.testbed.experiment.StatusAccuracy;
import org.cloudtalk.testbed.experiment.YarnFault;

/** The experiments {@code testbed run} knows by name. */
final class Experiments {
    private static final List<Experiment> ALL = List.of(
            new StatusAccuracy(),
            new QueryUnderLoad(),
            new SamplingAtScale(),
            new Capacity(),
            new Oscillation(),
            new HdfsWrite(),
            new HdfsRead(),
            new HdfsDisk(),
            new BusyWriter(),
            new HdfsFault(),
            new HdfsReaction(),
            new ReducePlacement(),
            new YarnFault(),
            new SlowDisks(),
            new SolrReplicas(),
            new Incast());

    private Experiments() {}

    /** The names, for picocli's help ({@code ${COMPLETION-CANDIDATES}}). */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return names().iterator();
        }
    }

    static List<String> names() {
        return ALL.stream().map(Experiment::name).toList();
    }

    static Experiment named(String name) {
        return ALL.stream()
                .filter(e -> e.name().equals(name))
                .findFirst()
                .orElseThrow(() -> TestbedException.invalidValue(
                        name, "EXPERIMENT", "unknown experiment (known: " + String.join(", ", names()) + ")"));
    }
}

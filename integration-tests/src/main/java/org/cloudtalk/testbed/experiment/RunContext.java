package org.cloudtalk.testbed.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.fidelity.Fidelity;
import org.cloudtalk.testbed.net.Host;

/**
 * One run's settings: the testbed, the share of hosts to make busy, how long to measure, a random source seeded by
 * the repeat number, so that repeat r of a busy fraction picks the same hosts every time, and settings for the
 * CloudTalk plugins the experiment installs ({@code --cloudtalk-setting}; the HDFS experiments add them to the
 * CloudTalk NameNode's hdfs-site.xml).
 */
public record RunContext(
        Testbed testbed,
        double busyFraction,
        int repeat,
        Duration measure,
        Random random,
        Map<String, String> cloudTalkSettings) {
    public RunContext {
        cloudTalkSettings = Map.copyOf(cloudTalkSettings);
    }

    /** The metric recording each compared item's position (0: first) in the order a run drew. */
    public static final String ORDER = "order-";

    /** How long background load needs to reach its steady state (TCP ramp-up plus one daemon smoothing window). */
    public static final Duration SETTLE = Duration.ofSeconds(3);

    /** {@code busyFraction} of {@code candidates} (at least 2, as TCP load needs a peer), picked at random. */
    public List<Host> pickBusy(List<Host> candidates) {
        int count = Math.max(2, (int) Math.round(busyFraction * candidates.size()));
        if (count > candidates.size()) {
            throw TestbedException.invalidValue(
                    busyFraction,
                    "--busy",
                    count + " busy hosts needed but only " + candidates.size() + " can be busy");
        }
        List<Host> shuffled = new ArrayList<>(candidates);
        Collections.shuffle(shuffled, random);
        return List.copyOf(shuffled.subList(0, count));
    }

    /**
     * Runs {@code phase} once for each of {@code items}, in an order drawn from this run's random source and recorded
     * ({@link #ORDER} + label: position), so that whatever drifts during a run (page cache, disks filling, the
     * machine's other load) falls on every item alike over the repeats; answers the phases' fidelity together.
     */
    public <T> Fidelity inDrawnOrder(
            List<T> items, Function<T, String> label, List<Measurement> rows, Function<T, Fidelity> phase) {
        List<T> order = new ArrayList<>(items);
        Collections.shuffle(order, random);
        Fidelity fidelity = null;
        for (int position = 0; position < order.size(); position++) {
            T item = order.get(position);
            String name = label.apply(item);
            rows.add(new Measurement(ORDER + name, "position", position));
            Fidelity verdict = phase.apply(item);
            fidelity = fidelity == null ? verdict : Fidelity.both(fidelity, verdict, name);
        }
        return fidelity;
    }

    /** Sleeps, turning an interrupt into a failed run. */
    public static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestbedException("interrupted", e);
        }
    }
}

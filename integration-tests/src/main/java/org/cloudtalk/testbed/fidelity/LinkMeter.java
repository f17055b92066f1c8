package org.cloudtalk.testbed.fidelity;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.cloudtalk.testbed.net.Link;

/** The ground truth of link use: the shapers' byte counters, read at {@link #start} and again at {@link #rates}. */
public final class LinkMeter {
    private final String core;
    private final Map<Link, Long> startBytes = new LinkedHashMap<>();
    private final long startNanos;

    private LinkMeter(String core, Set<Link> links) {
        this.core = core;
        links.forEach(link -> startBytes.put(link, link.sentBytes(core)));
        this.startNanos = System.nanoTime();
    }

    public static LinkMeter start(String core, Set<Link> links) {
        return new LinkMeter(core, links);
    }

    /** Each link's mean rate in bits/s since {@link #start}. */
    public Map<Link, Double> rates() {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        Map<Link, Double> rates = new LinkedHashMap<>();
        startBytes.forEach((link, bytes) -> rates.put(link, (link.sentBytes(core) - bytes) * 8 / seconds));
        return rates;
    }
}

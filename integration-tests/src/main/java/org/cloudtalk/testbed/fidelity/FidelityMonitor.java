package org.cloudtalk.testbed.fidelity;

import java.util.Map;
import java.util.Set;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.net.Link;

/** Watches one run: CPU idle share throughout, and the ground-truth rate of the links the load saturates. */
public final class FidelityMonitor implements AutoCloseable {
    private final CpuIdleSampler cpu;
    private final LinkMeter links;
    private final long rateBits;

    private FidelityMonitor(CpuIdleSampler cpu, LinkMeter links, long rateBits) {
        this.cpu = cpu;
        this.links = links;
        this.rateBits = rateBits;
    }

    /** Starts watching; call once the load has reached its steady state. */
    public static FidelityMonitor start(Testbed testbed, Set<Link> saturated) {
        return new FidelityMonitor(
                CpuIdleSampler.start(500),
                LinkMeter.start(testbed.coreNamespace(), saturated),
                testbed.config().rateBits());
    }

    /** The verdict on the run so far. */
    public Fidelity verdict() {
        return Fidelity.judge(cpu.shares(), links.rates(), rateBits);
    }

    /** The saturated links' mean rates so far, bits/s. */
    public Map<Link, Double> linkRates() {
        return links.rates();
    }

    @Override
    public void close() {
        cpu.close();
    }
}

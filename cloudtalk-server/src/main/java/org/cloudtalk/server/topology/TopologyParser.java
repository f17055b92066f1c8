package org.cloudtalk.server.topology;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import org.cloudtalk.common.io.TextFile;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.lang.ast.Dimension;
import org.cloudtalk.lang.ast.Unit;

/**
 * Reads the topology file format of docs/topology.md: {@code tier} lines for the three tiers and {@code rack} lines
 * listing hosts (addresses or IPv4 ranges). Every error names its line.
 */
public final class TopologyParser {
    /** Largest IPv4 range on one rack line: a typo like 10.0.0.1-10.9.0.1 must not allocate millions of hosts. */
    static final int MAX_RANGE = 4096;

    /** A bound on a quantity, in its base unit, and as the error message says it. */
    private record Limit(double value, String text) {}

    // Far beyond any data centre's, and within what the packet simulator takes (ns-3 keeps a port's buffer in 32 bits).
    private static final Limit MAX_RATE = new Limit(1e15 / 8, "1000Tbps");
    private static final Limit MAX_LATENCY = new Limit(60, "60s");
    private static final Limit MAX_BUFFER = new Limit(0x1p30, "1GB");
    private static final int MAX_OVERSUBSCRIPTION = 1000;
    private static final Limit UNBOUNDED = new Limit(Double.POSITIVE_INFINITY, "");

    private static final Set<String> TIER_KEYS = Set.of("rate", "oversubscription", "latency", "buffer");

    private final Map<Topology.TierName, Topology.Tier> tiers = new EnumMap<>(Topology.TierName.class);
    private final List<Topology.Rack> racks = new ArrayList<>();
    private final Set<String> rackNames = new HashSet<>();
    private final Map<String, String> rackOfHost = new HashMap<>();
    /** Where each rack and tier was defined, for errors found once the whole file is read. */
    private final Map<String, Integer> rackLines = new HashMap<>();

    private final Map<Topology.TierName, Integer> tierLines = new EnumMap<>(Topology.TierName.class);
    private int line;

    private TopologyParser() {}

    public static Topology read(Path file) throws TopologyException {
        try {
            return parse(TextFile.read(file));
        } catch (FileSystemException e) {
            // Its message is the path alone, or the path and the reason: say the reason, or what kind of failure it
            // was.
            String reason = e.getReason() != null
                    ? e.getReason()
                    : e instanceof NoSuchFileException
                            ? "no such file"
                            : e.getClass().getSimpleName();
            throw new TopologyException("cannot read " + file + " (" + reason + ")");
        } catch (IOException e) {
            throw new TopologyException("cannot read " + file + " (" + e.getMessage() + ")");
        } catch (TextFile.BadTextException e) {
            throw new TopologyException(e.getMessage());
        }
    }

    public static Topology parse(String text) throws TopologyException {
        TopologyParser parser = new TopologyParser();
        // Lines end as any editor ends them: LF, CR LF, or a lone CR (old Mac files), which would else be one line.
        String[] lines = text.split("\r\n|\r|\n", -1);
        for (int i = 0; i < lines.length; i++) {
            parser.line = i + 1;
            String content = lines[i];
            int comment = content.indexOf('#');
            if (comment >= 0) {
                content = content.substring(0, comment);
            }
            content = content.strip();
            if (!content.isEmpty()) {
                parser.statement(content.split("\\s+"));
            }
        }
        return parser.finish();
    }

    private void statement(String[] words) throws TopologyException {
        switch (words[0]) {
            case "tier" -> tier(words);
            case "rack" -> rack(words);
            default -> throw error("unknown statement '" + words[0] + "'; expected 'tier' or 'rack'");
        }
    }

    private void tier(String[] words) throws TopologyException {
        if (words.length < 2) {
            throw error("'tier' needs a name: host, rack or pod");
        }
        Topology.TierName name = tierName(words[1]);
        if (tiers.containsKey(name)) {
            throw error("tier " + words[1] + " is defined twice");
        }
        Map<String, String> values = new HashMap<>();
        for (int i = 2; i < words.length; i += 2) {
            String key = words[i];
            if (!TIER_KEYS.contains(key)) {
                throw error("unknown tier attribute '" + key + "'; expected rate, oversubscription, latency or buffer");
            }
            if (i + 1 == words.length) {
                throw error("'" + key + "' needs a value");
            }
            if (values.put(key, words[i + 1]) != null) {
                throw error("'" + key + "' is given twice");
            }
        }
        for (String required : List.of("latency", "buffer")) {
            if (!values.containsKey(required)) {
                throw error("tier " + words[1] + " needs '" + required + "'");
            }
        }
        boolean hasRate = values.containsKey("rate");
        boolean hasRatio = values.containsKey("oversubscription");
        if (name == Topology.TierName.HOST && !hasRate) {
            throw error("tier host needs 'rate' (oversubscription applies to the rack and pod tiers)");
        }
        if (hasRate == hasRatio) {
            throw error("tier " + words[1] + " needs exactly one of 'rate' and 'oversubscription'");
        }
        OptionalDouble rate = hasRate
                ? OptionalDouble.of(quantity(values.get("rate"), Dimension.RATE, "rate", "like 10Gbps", MAX_RATE))
                : OptionalDouble.empty();
        OptionalDouble ratio =
                hasRatio ? OptionalDouble.of(ratio(values.get("oversubscription"))) : OptionalDouble.empty();
        double latency = quantity(values.get("latency"), Dimension.TIME, "latency", "like 10us", MAX_LATENCY);
        tiers.put(name, new Topology.Tier(rate, ratio, latency, buffer(values.get("buffer"))));
        tierLines.put(name, line);
    }

    private void rack(String[] words) throws TopologyException {
        if (words.length < 5 || !words[2].equals("pod")) {
            throw error("expected 'rack NAME pod NAME HOST...'");
        }
        String name = words[1];
        if (!rackNames.add(name)) {
            throw error("rack " + name + " is defined twice");
        }
        List<String> hosts = new ArrayList<>();
        for (int i = 4; i < words.length; i++) {
            for (String host : hosts(words[i])) {
                String previous = rackOfHost.putIfAbsent(host, name);
                if (previous != null) {
                    throw error("host " + host + " is already in rack " + previous);
                }
                hosts.add(host);
            }
        }
        racks.add(new Topology.Rack(name, words[3], hosts));
        rackLines.put(name, line);
    }

    private Topology finish() throws TopologyException {
        line = 0;
        for (Topology.TierName name : Topology.TierName.values()) {
            if (!tiers.containsKey(name)) {
                throw new TopologyException(
                        "the topology needs a 'tier " + name.name().toLowerCase(Locale.ROOT) + "' line");
            }
        }
        if (racks.isEmpty()) {
            throw new TopologyException("the topology needs at least one 'rack' line");
        }
        Topology topology = new Topology(
                tiers.get(Topology.TierName.HOST),
                tiers.get(Topology.TierName.RACK),
                tiers.get(Topology.TierName.POD),
                racks);
        checkUplinkRates(topology);
        return topology;
    }

    /**
     * Uplinks derived from an oversubscription stay within the rates a tier may give (the packet simulator takes no
     * more): many fast hosts under a low ratio could otherwise ask for exabits per second.
     */
    private void checkUplinkRates(Topology topology) throws TopologyException {
        Set<String> pods = new LinkedHashSet<>();
        for (Topology.Rack rack : racks) {
            pods.add(rack.pod());
            if (topology.rackUplinkRate(rack) > MAX_RATE.value()) {
                line = rackLines.get(rack.name());
                throw error("rack " + rack.name() + "'s uplink would run at over " + MAX_RATE.text() + " (its "
                        + rack.hosts().size() + " hosts' rate over the rack tier's oversubscription): give 'tier rack'"
                        + " a rate, or a higher oversubscription");
            }
        }
        for (String pod : pods) {
            if (topology.podUplinkRate(pod) > MAX_RATE.value()) {
                line = tierLines.get(Topology.TierName.POD);
                throw error("pod " + pod + "'s uplink would run at over " + MAX_RATE.text() + " (its racks' uplinks"
                        + " over the pod tier's oversubscription): give 'tier pod' a rate, or a higher"
                        + " oversubscription");
            }
        }
    }

    private Topology.TierName tierName(String word) throws TopologyException {
        for (Topology.TierName name : Topology.TierName.values()) {
            if (name.name().toLowerCase(Locale.ROOT).equals(word)) {
                return name;
            }
        }
        throw error("unknown tier '" + word + "'; expected host, rack or pod");
    }

    /**
     * A positive number with a unit of the given dimension, in the unit's base (bytes/s or seconds), at most
     * {@code max} (its text).
     */
    private double quantity(String text, Dimension dimension, String what, String example, Limit max)
            throws TopologyException {
        int split = 0;
        while (split < text.length() && (Character.isDigit(text.charAt(split)) || text.charAt(split) == '.')) {
            split++;
        }
        Optional<Unit> unit = Unit.bySuffix(text.substring(split));
        double number = split == 0 ? Double.NaN : parseNumber(text.substring(0, split));
        if (Double.isNaN(number) || unit.isEmpty() || unit.get().dimension() != dimension || number <= 0) {
            throw error("invalid " + what + " '" + text + "': expected a positive number with a unit, " + example);
        }
        double value = number * unit.get().multiplier();
        if (value > max.value()) {
            throw error("invalid " + what + " '" + text + "': at most " + max.text());
        }
        return value;
    }

    private double ratio(String text) throws TopologyException {
        double value = text.matches("\\d+(\\.\\d*)?") ? parseNumber(text) : Double.NaN;
        if (!(value >= 1 && value <= MAX_OVERSUBSCRIPTION)) {
            throw error("invalid oversubscription '" + text + "': expected a number from 1 to " + MAX_OVERSUBSCRIPTION
                    + ", like 4");
        }
        return value;
    }

    private Topology.Buffer buffer(String text) throws TopologyException {
        String invalid = "invalid buffer '" + text + "': expected packets like 50pkt or bytes like 64KB";
        if (text.endsWith("pkt")) {
            String count = text.substring(0, text.length() - "pkt".length());
            if (count.matches("[1-9]\\d{9,}")) {
                throw error("invalid buffer '" + text + "': at most 999999999pkt");
            }
            if (!count.matches("[1-9]\\d{0,8}")) {
                throw error(invalid);
            }
            return new Topology.Buffer(Long.parseLong(count), true);
        }
        double bytes;
        try {
            bytes = quantity(text, Dimension.BYTES, "buffer", "", UNBOUNDED);
        } catch (TopologyException e) {
            throw error(invalid);
        }
        if (bytes < 1) {
            throw error(invalid);
        }
        if (bytes > MAX_BUFFER.value()) {
            throw error("invalid buffer '" + text + "': at most " + MAX_BUFFER.text());
        }
        return new Topology.Buffer((long) bytes, false);
    }

    private static double parseNumber(String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** One host word: an address, or an IPv4 range {@code FIRST-LAST} (inclusive). */
    private List<String> hosts(String word) throws TopologyException {
        int dash = word.indexOf('-');
        if (dash < 0) {
            return List.of(address(word));
        }
        long first = ipv4(word.substring(0, dash), word);
        long last = ipv4(word.substring(dash + 1), word);
        if (last < first) {
            throw error("invalid range '" + word + "': the last address is before the first");
        }
        if (last - first + 1 > MAX_RANGE) {
            throw error("invalid range '" + word + "': more than " + MAX_RANGE + " addresses");
        }
        if (first == 0) {
            throw error("invalid range '" + word + "': 0.0.0.0, the unspecified address, is not a host");
        }
        List<String> hosts = new ArrayList<>();
        for (long a = first; a <= last; a++) {
            hosts.add((a >>> 24) + "." + ((a >>> 16) & 255) + "." + ((a >>> 8) & 255) + "." + (a & 255));
        }
        return hosts;
    }

    private long ipv4(String text, String word) throws TopologyException {
        Address address = parse(text, word);
        if (address.family() != Address.Family.IPV4) {
            throw error("invalid range '" + word + "': ranges are of IPv4 addresses");
        }
        long value = 0;
        for (String octet : address.text().split("\\.")) {
            value = value << 8 | Integer.parseInt(octet);
        }
        return value;
    }

    private String address(String text) throws TopologyException {
        Address address = parse(text, text);
        if (address.isUnspecified()) {
            throw error("invalid host '" + text + "': the unspecified address is not a host");
        }
        return address.text();
    }

    private Address parse(String text, String word) throws TopologyException {
        try {
            return Address.parse(text);
        } catch (IllegalArgumentException e) {
            throw error("invalid host '" + word + "': " + e.getMessage());
        }
    }

    private TopologyException error(String message) {
        return new TopologyException("line " + line + ": " + message);
    }
}

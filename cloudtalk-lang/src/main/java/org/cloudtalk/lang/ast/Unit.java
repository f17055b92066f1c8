package org.cloudtalk.lang.ast;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Unit suffixes of numeric literals (case-sensitive). Base units are bytes, bytes per second and seconds.
 *
 * <ul>
 *   <li>{@code K M G T}: binary multipliers (2^10 ...) of a plain number, as in the paper's {@code size 256M}; they
 *       fit any attribute, so {@code rate 100M} is 100 MiB/s.
 *   <li>{@code B KB MB GB TB} (also {@code KiB MiB GiB TiB}): bytes, binary multiples, as Hadoop counts block sizes.
 *   <li>{@code Bps KBps MBps GBps TBps}: bytes per second, binary multiples.
 *   <li>{@code bps Kbps Mbps Gbps Tbps}: bits per second, decimal multiples as link speeds are quoted; converted to
 *       bytes per second (1 Gbps = 125,000,000 bytes/s).
 *   <li>{@code s ms us}: seconds.
 * </ul>
 */
public enum Unit {
    NONE("", 1, Dimension.NONE),
    KILO("K", 0x1p10, Dimension.NONE),
    MEGA("M", 0x1p20, Dimension.NONE),
    GIGA("G", 0x1p30, Dimension.NONE),
    TERA("T", 0x1p40, Dimension.NONE),
    BYTE("B", 1, Dimension.BYTES),
    KIBIBYTE("KB", 0x1p10, Dimension.BYTES, "KiB"),
    MEBIBYTE("MB", 0x1p20, Dimension.BYTES, "MiB"),
    GIBIBYTE("GB", 0x1p30, Dimension.BYTES, "GiB"),
    TEBIBYTE("TB", 0x1p40, Dimension.BYTES, "TiB"),
    BYTES_PER_SECOND("Bps", 1, Dimension.RATE),
    KIBIBYTES_PER_SECOND("KBps", 0x1p10, Dimension.RATE, "KiBps"),
    MEBIBYTES_PER_SECOND("MBps", 0x1p20, Dimension.RATE, "MiBps"),
    GIBIBYTES_PER_SECOND("GBps", 0x1p30, Dimension.RATE, "GiBps"),
    TEBIBYTES_PER_SECOND("TBps", 0x1p40, Dimension.RATE, "TiBps"),
    BITS_PER_SECOND("bps", 1 / 8.0, Dimension.RATE),
    KILOBITS_PER_SECOND("Kbps", 1e3 / 8, Dimension.RATE, "kbps"),
    MEGABITS_PER_SECOND("Mbps", 1e6 / 8, Dimension.RATE),
    GIGABITS_PER_SECOND("Gbps", 1e9 / 8, Dimension.RATE),
    TERABITS_PER_SECOND("Tbps", 1e12 / 8, Dimension.RATE),
    SECOND("s", 1, Dimension.TIME),
    MILLISECOND("ms", 1e-3, Dimension.TIME),
    MICROSECOND("us", 1e-6, Dimension.TIME);

    private static final Map<String, Unit> BY_SUFFIX = new HashMap<>();

    static {
        for (Unit unit : values()) {
            BY_SUFFIX.put(unit.symbol, unit);
            for (String alias : unit.aliases) {
                BY_SUFFIX.put(alias, unit);
            }
        }
    }

    private final String symbol;
    private final double multiplier;
    private final Dimension dimension;
    private final String[] aliases;

    Unit(String symbol, double multiplier, Dimension dimension, String... aliases) {
        this.symbol = symbol;
        this.multiplier = multiplier;
        this.dimension = dimension;
        this.aliases = aliases;
    }

    public static Optional<Unit> bySuffix(String suffix) {
        return Optional.ofNullable(BY_SUFFIX.get(suffix));
    }

    /** The canonical suffix, as the printer writes it. */
    public String symbol() {
        return symbol;
    }

    /** Factor from a number written with this unit to the base unit (bytes, bytes/s or seconds). */
    public double multiplier() {
        return multiplier;
    }

    public Dimension dimension() {
        return dimension;
    }
}

package org.cloudtalk.lang.ast;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A literal IP address in canonical text form: dotted decimal for IPv4 (also for an IPv4-mapped IPv6 address,
 * {@code ::ffff:a.b.c.d}), RFC 5952 for IPv6. Parsing never resolves names (no DNS on the query path).
 */
public record Address(String text, Family family) {
    public enum Family {
        IPV4,
        IPV6
    }

    private static final Address UNSPECIFIED_V4 = new Address("0.0.0.0", Family.IPV4);
    private static final Address UNSPECIFIED_V6 = new Address("::", Family.IPV6);

    public Address {
        requireNonNull(text, "text is null");
        requireNonNull(family, "family is null");
    }

    /** Parses an address literal; the exception message says what is wrong with it. */
    public static Address parse(String literal) {
        requireNonNull(literal, "literal is null");
        return literal.indexOf(':') >= 0 ? parseV6(literal) : parseV4(literal);
    }

    /** The canonical address of a JDK address (its scope, if any, dropped); no name lookup. */
    public static Address of(InetAddress address) {
        requireNonNull(address, "address is null");
        byte[] bytes = address.getAddress();
        if (bytes.length == 4) {
            int[] octets = new int[4];
            for (int i = 0; i < 4; i++) {
                octets[i] = bytes[i] & 0xff;
            }
            return new Address(formatV4(octets), Family.IPV4);
        }
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff);
        }
        return ofGroups(groups);
    }

    /** This address as the JDK's type, to send to it; no name lookup (the text is a literal). */
    public InetAddress toInetAddress() {
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("not an address literal: " + text, e);
        }
    }

    /** {@code 0.0.0.0} or {@code ::}: the query language's "unknown source". */
    public boolean isUnspecified() {
        return equals(UNSPECIFIED_V4) || equals(UNSPECIFIED_V6);
    }

    @Override
    public String toString() {
        return text;
    }

    private static Address parseV4(String literal) {
        return new Address(formatV4(parseV4Octets(literal)), Family.IPV4);
    }

    /** A hand-written scan: this runs for every candidate of every query, so no regex or streams. */
    private static int[] parseV4Octets(String literal) {
        int parts = 1;
        for (int i = 0; i < literal.length(); i++) {
            char c = literal.charAt(i);
            if (c == '.') {
                parts++;
            } else if (c < '0' || c > '9') {
                throw new IllegalArgumentException("not an IPv4 or IPv6 address literal (host names are not resolved)");
            }
        }
        if (parts != 4) {
            throw new IllegalArgumentException("an IPv4 address has 4 parts, not " + parts);
        }
        int[] octets = new int[4];
        int part = 0;
        int start = 0;
        for (int i = 0; i <= literal.length(); i++) {
            if (i == literal.length() || literal.charAt(i) == '.') {
                octets[part++] = parseOctet(literal.substring(start, i));
                start = i + 1;
            }
        }
        return octets;
    }

    private static int parseOctet(String part) {
        int value = 0;
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (i == 3) {
                throw new IllegalArgumentException("part '" + part + "' is not a number from 0 to 255");
            }
            value = value * 10 + (c - '0');
        }
        if (part.isEmpty() || value > 255) {
            throw new IllegalArgumentException("part '" + part + "' is not a number from 0 to 255");
        }
        if (part.length() > 1 && part.charAt(0) == '0') {
            throw new IllegalArgumentException("part '" + part + "' has a leading zero");
        }
        return value;
    }

    private static String formatV4(int[] octets) {
        return octets[0] + "." + octets[1] + "." + octets[2] + "." + octets[3];
    }

    private static Address parseV6(String literal) {
        int doubleColon = literal.indexOf("::");
        if (doubleColon >= 0 && literal.indexOf("::", doubleColon + 1) >= 0) {
            throw new IllegalArgumentException("'::' may appear only once");
        }
        String head = doubleColon >= 0 ? literal.substring(0, doubleColon) : literal;
        String tail = doubleColon >= 0 ? literal.substring(doubleColon + 2) : "";
        int[] headGroups = parseGroups(head, doubleColon < 0);
        int[] tailGroups = parseGroups(tail, true);
        int count = headGroups.length + tailGroups.length;
        if (doubleColon < 0 && count != 8) {
            throw new IllegalArgumentException("an IPv6 address has 8 groups, not " + count);
        }
        if (doubleColon >= 0 && count > 7) {
            throw new IllegalArgumentException("too many groups around '::'");
        }
        int[] groups = new int[8];
        System.arraycopy(headGroups, 0, groups, 0, headGroups.length);
        System.arraycopy(tailGroups, 0, groups, 8 - tailGroups.length, tailGroups.length);
        return ofGroups(groups);
    }

    private static Address ofGroups(int[] groups) {
        if (isV4Mapped(groups)) {
            // ::ffff:a.b.c.d is the IPv4 host a.b.c.d (as the JDK and the kernel take it): one host, one text, so
            // that distinct values and status lookups see it as the same machine.
            return new Address(
                    formatV4(new int[] {groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff}),
                    Family.IPV4);
        }
        return new Address(formatV6(groups), Family.IPV6);
    }

    private static boolean isV4Mapped(int[] groups) {
        for (int i = 0; i < 5; i++) {
            if (groups[i] != 0) {
                return false;
            }
        }
        return groups[5] == 0xffff;
    }

    /** Hex groups separated by single colons; the last may be an embedded dotted IPv4 address if allowed. */
    private static int[] parseGroups(String text, boolean mayEndWithV4) {
        if (text.isEmpty()) {
            return new int[0];
        }
        String[] parts = text.split(":", -1);
        int[] groups = new int[parts.length + 1];
        int count = 0;
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            if (part.indexOf('.') >= 0) {
                if (!mayEndWithV4 || i != parts.length - 1) {
                    throw new IllegalArgumentException("an embedded IPv4 address must come last");
                }
                int[] octets = parseV4Octets(part);
                groups[count++] = octets[0] << 8 | octets[1];
                groups[count++] = octets[2] << 8 | octets[3];
                continue;
            }
            if (part.isEmpty() || part.length() > 4) {
                throw new IllegalArgumentException("group '" + part + "' is not 1 to 4 hex digits");
            }
            int value = 0;
            for (int c = 0; c < part.length(); c++) {
                int digit = Character.digit(part.charAt(c), 16);
                if (digit < 0) {
                    throw new IllegalArgumentException("group '" + part + "' is not 1 to 4 hex digits");
                }
                value = value << 4 | digit;
            }
            groups[count++] = value;
        }
        int[] result = new int[count];
        System.arraycopy(groups, 0, result, 0, count);
        return result;
    }

    /** RFC 5952: lower case, no leading zeros, the longest run (first on a tie) of 2+ zero groups as '::'. */
    private static String formatV6(int[] groups) {
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int start = i;
            while (i < 8 && groups[i] == 0) {
                i++;
            }
            if (i - start > bestLength) {
                bestStart = start;
                bestLength = i - start;
            }
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                text.append("::");
                i += bestLength - 1;
                continue;
            }
            if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
                text.append(':');
            }
            text.append(Integer.toHexString(groups[i]));
        }
        return text.toString();
    }
}

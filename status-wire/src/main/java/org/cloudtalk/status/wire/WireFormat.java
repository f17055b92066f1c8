package org.cloudtalk.status.wire;

/**
 * Layout of the status protocol, version 1. All integers are big-endian and unsigned. See docs/status-protocol.md.
 *
 * <pre>
 * header   magic "CT" (2) | version (1) | type (1) | request id (8) | timestamp ms since epoch (8) | count (1)
 * request  header | count x endpoint                                    | MAC (16)
 * reply    header | count x (endpoint | flags (1) | sample age ms (4)
 *                   | NIC rx cap, rx use, tx cap, tx use in kbit/s (4 each)
 *                   | disk read cap, read use, write cap, write use in KiB/s (4 each)) | MAC (16)
 * endpoint family (1: 4 or 6) | address (4 or 16)
 * MAC      HMAC-SHA256(key, every preceding byte), first 16 bytes
 * </pre>
 *
 * A request with count 0 asks for every endpoint the daemon serves.
 */
public final class WireFormat {
    public static final short MAGIC = 0x4354; // "CT"
    public static final byte VERSION = 1;
    public static final byte TYPE_REQUEST = 1;
    public static final byte TYPE_REPLY = 2;
    public static final int HEADER_LENGTH = 21;
    public static final int COUNT_OFFSET = 20;
    public static final int MAC_LENGTH = 16;
    public static final byte FAMILY_IPV4 = 4;
    public static final byte FAMILY_IPV6 = 6;
    /** Keeps a full reply of IPv6 endpoints (1,333 bytes) inside one Ethernet frame. */
    public static final int MAX_ENDPOINTS = 24;
    /** Flags bit: the daemon serves this endpoint; otherwise every figure is zero. */
    public static final int FLAG_KNOWN = 1;
    /** Per endpoint in a reply, after its address. */
    public static final int STATUS_LENGTH = 1 + 4 + 8 * 4;

    public static final int MAX_DATAGRAM = HEADER_LENGTH + MAX_ENDPOINTS * (1 + 16 + STATUS_LENGTH) + MAC_LENGTH;

    private WireFormat() {}
}

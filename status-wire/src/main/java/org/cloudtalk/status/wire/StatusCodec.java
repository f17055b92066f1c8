package org.cloudtalk.status.wire;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes and decodes status datagrams ({@link WireFormat}), signing and verifying each with the deployment key.
 * Decoding checks size, magic, version and type first, then the MAC, and only parses the body of an authentic
 * datagram. Staleness and replays are the caller's business ({@link ReplayGuard}).
 *
 * <p>Concurrency: thread-safe.
 */
public final class StatusCodec {
    private static final long KILO = 1000;
    private static final long KIBI = 1024;
    private static final long UINT32_MAX = 0xFFFF_FFFFL;

    private final MessageAuthenticator authenticator;

    public StatusCodec(MessageAuthenticator authenticator) {
        this.authenticator = requireNonNull(authenticator, "authenticator is null");
    }

    public byte[] encodeRequest(StatusRequest request) {
        int length = WireFormat.HEADER_LENGTH + WireFormat.MAC_LENGTH;
        for (InetAddress endpoint : request.endpoints()) {
            length += addressLength(endpoint);
        }
        ByteBuffer out = ByteBuffer.allocate(length);
        header(
                out,
                WireFormat.TYPE_REQUEST,
                request.requestId(),
                request.timestampMillis(),
                request.endpoints().size());
        for (InetAddress endpoint : request.endpoints()) {
            address(out, endpoint);
        }
        return sign(out);
    }

    public byte[] encodeReply(StatusReply reply) {
        int length = WireFormat.HEADER_LENGTH + WireFormat.MAC_LENGTH;
        for (EndpointStatus status : reply.endpoints()) {
            length += addressLength(status.endpoint()) + WireFormat.STATUS_LENGTH;
        }
        ByteBuffer out = ByteBuffer.allocate(length);
        header(
                out,
                WireFormat.TYPE_REPLY,
                reply.requestId(),
                reply.timestampMillis(),
                reply.endpoints().size());
        for (EndpointStatus status : reply.endpoints()) {
            address(out, status.endpoint());
            out.put((byte) (status.known() ? WireFormat.FLAG_KNOWN : 0));
            out.putInt((int) Math.min(UINT32_MAX, status.sampleAgeMillis()));
            out.putInt(scale(status.nicRxCapacityBitsPerSecond(), KILO));
            out.putInt(scale(status.nicRxUseBitsPerSecond(), KILO));
            out.putInt(scale(status.nicTxCapacityBitsPerSecond(), KILO));
            out.putInt(scale(status.nicTxUseBitsPerSecond(), KILO));
            out.putInt(scale(status.diskReadCapacityBytesPerSecond(), KIBI));
            out.putInt(scale(status.diskReadUseBytesPerSecond(), KIBI));
            out.putInt(scale(status.diskWriteCapacityBytesPerSecond(), KIBI));
            out.putInt(scale(status.diskWriteUseBytesPerSecond(), KIBI));
        }
        return sign(out);
    }

    public StatusRequest decodeRequest(byte[] data, int length) throws WireException {
        ByteBuffer in = open(data, length, WireFormat.TYPE_REQUEST);
        Header header = header(in);
        List<InetAddress> endpoints = new ArrayList<>(header.count());
        for (int i = 0; i < header.count(); i++) {
            endpoints.add(address(in));
        }
        checkConsumed(in);
        return new StatusRequest(header.requestId(), header.timestampMillis(), endpoints);
    }

    public StatusReply decodeReply(byte[] data, int length) throws WireException {
        ByteBuffer in = open(data, length, WireFormat.TYPE_REPLY);
        Header header = header(in);
        List<EndpointStatus> endpoints = new ArrayList<>(header.count());
        for (int i = 0; i < header.count(); i++) {
            InetAddress endpoint = address(in);
            need(in, WireFormat.STATUS_LENGTH);
            boolean known = (in.get() & WireFormat.FLAG_KNOWN) != 0;
            endpoints.add(new EndpointStatus(
                    endpoint,
                    known,
                    uint(in),
                    uint(in) * KILO,
                    uint(in) * KILO,
                    uint(in) * KILO,
                    uint(in) * KILO,
                    uint(in) * KIBI,
                    uint(in) * KIBI,
                    uint(in) * KIBI,
                    uint(in) * KIBI));
        }
        checkConsumed(in);
        return new StatusReply(header.requestId(), header.timestampMillis(), endpoints);
    }

    /** Checks everything but the body, then the MAC; returns a buffer positioned at the request id. */
    private ByteBuffer open(byte[] data, int length, byte expectedType) throws WireException {
        if (length < WireFormat.HEADER_LENGTH + WireFormat.MAC_LENGTH) {
            throw new WireException(DropReason.TOO_SHORT, "datagram of " + length + " bytes is too short");
        }
        if (length > WireFormat.MAX_DATAGRAM) {
            throw new WireException(DropReason.TOO_LONG, "datagram of " + length + " bytes is too long");
        }
        ByteBuffer in = ByteBuffer.wrap(data, 0, length - WireFormat.MAC_LENGTH);
        if (in.getShort() != WireFormat.MAGIC) {
            throw new WireException(DropReason.BAD_MAGIC, "not a CloudTalk status datagram");
        }
        byte version = in.get();
        if (version != WireFormat.VERSION) {
            throw new WireException(DropReason.UNSUPPORTED_VERSION, "unsupported protocol version " + version);
        }
        byte type = in.get();
        if (type != expectedType) {
            throw new WireException(DropReason.WRONG_TYPE, "message type " + type + ", expected " + expectedType);
        }
        if (!authenticator.verify(data, length)) {
            throw new WireException(DropReason.BAD_MAC, "authentication failed");
        }
        return in;
    }

    /** The header fields after type, common to both messages. */
    private record Header(long requestId, long timestampMillis, int count) {}

    private static Header header(ByteBuffer in) throws WireException {
        long requestId = in.getLong();
        long timestamp = in.getLong();
        int count = Byte.toUnsignedInt(in.get());
        if (count > WireFormat.MAX_ENDPOINTS) {
            throw new WireException(DropReason.TOO_MANY_ENDPOINTS, count + " endpoints in one datagram");
        }
        return new Header(requestId, timestamp, count);
    }

    private static void checkConsumed(ByteBuffer in) throws WireException {
        if (in.hasRemaining()) {
            throw new WireException(DropReason.MALFORMED, in.remaining() + " unexpected trailing bytes");
        }
    }

    private static InetAddress address(ByteBuffer in) throws WireException {
        need(in, 1);
        byte family = in.get();
        int length = family == WireFormat.FAMILY_IPV4 ? 4 : family == WireFormat.FAMILY_IPV6 ? 16 : -1;
        if (length < 0) {
            throw new WireException(DropReason.MALFORMED, "unknown address family " + family);
        }
        need(in, length);
        byte[] bytes = new byte[length];
        in.get(bytes);
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("a 4 or 16 byte address is always valid", e);
        }
    }

    private static void need(ByteBuffer in, int bytes) throws WireException {
        if (in.remaining() < bytes) {
            throw new WireException(DropReason.MALFORMED, "datagram ends inside a field");
        }
    }

    private static long uint(ByteBuffer in) {
        return Integer.toUnsignedLong(in.getInt());
    }

    private static int scale(long value, long unit) {
        return (int) Math.min(UINT32_MAX, (value + unit / 2) / unit);
    }

    private static void header(ByteBuffer out, byte type, long requestId, long timestamp, int count) {
        out.putShort(WireFormat.MAGIC).put(WireFormat.VERSION).put(type);
        out.putLong(requestId).putLong(timestamp).put((byte) count);
    }

    private static int addressLength(InetAddress address) {
        return 1 + address.getAddress().length;
    }

    private static void address(ByteBuffer out, InetAddress address) {
        byte[] bytes = address.getAddress();
        out.put(bytes.length == 4 ? WireFormat.FAMILY_IPV4 : WireFormat.FAMILY_IPV6)
                .put(bytes);
    }

    private byte[] sign(ByteBuffer out) {
        byte[] data = out.array();
        int bodyLength = out.position();
        out.put(authenticator.mac(data, bodyLength));
        return data;
    }
}

package org.cloudtalk.status.wire;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** Test helper: authentic request datagrams with arbitrary (possibly malformed) bodies. */
public final class TestDatagrams {
    private TestDatagrams() {}

    /** A request header claiming {@code count} endpoints, {@code body} after it, signed with {@code key}. */
    public static byte[] signedRequest(byte[] key, long timestampMillis, int count, int... body) {
        ByteBuffer header = ByteBuffer.allocate(WireFormat.HEADER_LENGTH);
        header.putShort(WireFormat.MAGIC).put(WireFormat.VERSION).put(WireFormat.TYPE_REQUEST);
        header.putLong(1).putLong(timestampMillis).put((byte) count);
        byte[] data = Arrays.copyOf(header.array(), WireFormat.HEADER_LENGTH + body.length + WireFormat.MAC_LENGTH);
        for (int i = 0; i < body.length; i++) {
            data[WireFormat.HEADER_LENGTH + i] = (byte) body[i];
        }
        int bodyEnd = WireFormat.HEADER_LENGTH + body.length;
        System.arraycopy(new MessageAuthenticator(key).mac(data, bodyEnd), 0, data, bodyEnd, WireFormat.MAC_LENGTH);
        return data;
    }
}

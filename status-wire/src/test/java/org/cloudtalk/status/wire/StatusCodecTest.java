package org.cloudtalk.status.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusCodecTest {
    static final byte[] KEY = "0123456789abcdef-test-key".getBytes(StandardCharsets.US_ASCII);
    private final StatusCodec codec = new StatusCodec(new MessageAuthenticator(KEY));

    @Test
    void requestRoundTripsAndSingleEndpointDatagramsStayWellUnder128Bytes() throws Exception {
        InetAddress endpoint = InetAddress.getByName("10.0.0.7");
        StatusRequest request = new StatusRequest(42L, 1_700_000_000_000L, List.of(endpoint));
        byte[] bytes = codec.encodeRequest(request);
        assertThat(bytes).hasSize(42);
        assertThat(codec.decodeRequest(bytes, bytes.length)).isEqualTo(request);

        EndpointStatus status = new EndpointStatus(
                endpoint,
                true,
                120,
                10_000_000_000L,
                3_000_000_000L,
                10_000_000_000L,
                1_000L,
                200L << 20,
                7L << 20,
                100L << 20,
                0);
        byte[] reply = codec.encodeReply(new StatusReply(42L, 1_700_000_000_001L, List.of(status)));
        assertThat(reply).hasSize(79);
        assertThat(codec.decodeReply(reply, reply.length).endpoints()).containsExactly(status);
    }

    @Test
    void figuresAreQuantisedToKilobitsAndKibibytes() throws Exception {
        InetAddress endpoint = InetAddress.getByName("::1");
        EndpointStatus status = new EndpointStatus(endpoint, true, 1, 1_499, 1_500, 0, 0, 1_535, 1_536, 0, 0);
        byte[] reply = codec.encodeReply(new StatusReply(1, 2, List.of(status)));
        EndpointStatus decoded =
                codec.decodeReply(reply, reply.length).endpoints().get(0);
        assertThat(decoded.nicRxCapacityBitsPerSecond()).isEqualTo(1_000);
        assertThat(decoded.nicRxUseBitsPerSecond()).isEqualTo(2_000);
        assertThat(decoded.diskReadCapacityBytesPerSecond()).isEqualTo(1_024);
        assertThat(decoded.diskReadUseBytesPerSecond()).isEqualTo(2_048);
    }

    @Test
    void fullReplyOfIpv6EndpointsFitsTheLargestDatagram() throws Exception {
        List<EndpointStatus> statuses = new java.util.ArrayList<>();
        for (int i = 0; i < WireFormat.MAX_ENDPOINTS; i++) {
            statuses.add(EndpointStatus.unknown(InetAddress.getByName("2001:db8::" + (i + 1))));
        }
        byte[] reply = codec.encodeReply(new StatusReply(1, 2, statuses));
        assertThat(reply).hasSize(WireFormat.MAX_DATAGRAM);
        assertThat(codec.decodeReply(reply, reply.length).endpoints()).isEqualTo(statuses);
    }

    @Test
    void rejectsWhatIsNotAnAuthenticRequest() throws Exception {
        byte[] valid = codec.encodeRequest(new StatusRequest(7, 8, List.of(InetAddress.getByName("10.0.0.1"))));
        assertThat(reason(new byte[10])).isEqualTo(DropReason.TOO_SHORT);
        assertThat(reason(new byte[WireFormat.MAX_DATAGRAM + 1])).isEqualTo(DropReason.TOO_LONG);
        assertThat(reason(with(valid, 0, (byte) 'X'))).isEqualTo(DropReason.BAD_MAGIC);
        assertThat(reason(with(valid, 2, (byte) 9))).isEqualTo(DropReason.UNSUPPORTED_VERSION);
        assertThat(reason(with(valid, 3, WireFormat.TYPE_REPLY))).isEqualTo(DropReason.WRONG_TYPE);
        assertThat(reason(with(valid, 12, (byte) (valid[12] ^ 1)))).isEqualTo(DropReason.BAD_MAC);
        assertThat(reason(with(valid, valid.length - 1, (byte) (valid[valid.length - 1] ^ 1))))
                .isEqualTo(DropReason.BAD_MAC);
        StatusCodec otherKey = new StatusCodec(new MessageAuthenticator("another-key-of-16-bytes".getBytes()));
        assertThat(reason(otherKey.encodeRequest(new StatusRequest(7, 8, List.of()))))
                .isEqualTo(DropReason.BAD_MAC);
        // Authentic but malformed: the signer claims one endpoint and sends an address of unknown family.
        assertThat(reason(TestDatagrams.signedRequest(KEY, 2, 1, 5, 10, 0, 0, 1)))
                .isEqualTo(DropReason.MALFORMED);
        assertThat(reason(TestDatagrams.signedRequest(KEY, 2, 1, 4, 10, 0))).isEqualTo(DropReason.MALFORMED);
        assertThat(reason(TestDatagrams.signedRequest(KEY, 2, 0, 4))).isEqualTo(DropReason.MALFORMED);
        assertThat(reason(TestDatagrams.signedRequest(KEY, 2, WireFormat.MAX_ENDPOINTS + 1)))
                .isEqualTo(DropReason.TOO_MANY_ENDPOINTS);
    }

    @Test
    void replyCheckedWithTheSameRigour() throws Exception {
        byte[] reply = codec.encodeReply(
                new StatusReply(1, 2, List.of(EndpointStatus.unknown(InetAddress.getByName("10.0.0.1")))));
        WireException truncated =
                catchThrowableOfType(WireException.class, () -> codec.decodeRequest(reply, reply.length));
        assertThat(truncated.reason()).isEqualTo(DropReason.WRONG_TYPE);
        byte[] tampered = with(reply, 30, (byte) 0x7f);
        assertThat(catchThrowableOfType(WireException.class, () -> codec.decodeReply(tampered, tampered.length))
                        .reason())
                .isEqualTo(DropReason.BAD_MAC);
    }

    private DropReason reason(byte[] datagram) {
        WireException exception =
                catchThrowableOfType(WireException.class, () -> codec.decodeRequest(datagram, datagram.length));
        assertThat(exception).isNotNull();
        return exception.reason();
    }

    private static byte[] with(byte[] data, int index, byte value) {
        byte[] copy = data.clone();
        copy[index] = value;
        return copy;
    }
}

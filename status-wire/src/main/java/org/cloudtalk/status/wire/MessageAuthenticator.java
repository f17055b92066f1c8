package org.cloudtalk.status.wire;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Truncated HMAC-SHA256 with the deployment's shared key.
 *
 * <p>Concurrency: thread-safe; each thread keeps its own initialised {@link Mac}, since Mac instances are not.
 */
public final class MessageAuthenticator {
    public static final int MIN_KEY_LENGTH = 16;
    private static final String ALGORITHM = "HmacSHA256";

    private final ThreadLocal<Mac> macs;

    public MessageAuthenticator(byte[] key) {
        if (key.length < MIN_KEY_LENGTH) {
            throw new IllegalArgumentException("key must be at least " + MIN_KEY_LENGTH + " bytes, not " + key.length);
        }
        SecretKeySpec spec = new SecretKeySpec(Arrays.copyOf(key, key.length), ALGORITHM);
        newMac(spec); // fail now, not on the first datagram
        this.macs = ThreadLocal.withInitial(() -> newMac(spec));
    }

    /** The MAC of {@code data[0..length)}. */
    public byte[] mac(byte[] data, int length) {
        Mac mac = macs.get();
        mac.update(data, 0, length);
        return Arrays.copyOf(mac.doFinal(), WireFormat.MAC_LENGTH);
    }

    /** Whether the last {@link WireFormat#MAC_LENGTH} bytes of {@code data[0..length)} authenticate the rest. */
    public boolean verify(byte[] data, int length) {
        int bodyLength = length - WireFormat.MAC_LENGTH;
        byte[] expected = mac(data, bodyLength);
        byte[] actual = Arrays.copyOfRange(data, bodyLength, length);
        return MessageDigest.isEqual(expected, actual);
    }

    private static Mac newMac(SecretKeySpec spec) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(spec);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }
}

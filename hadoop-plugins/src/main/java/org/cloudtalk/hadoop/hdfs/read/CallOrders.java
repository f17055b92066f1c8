package org.cloudtalk.hadoop.hdfs.read;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.ipc.Server;

/**
 * The replica orders already worked out in the NameNode RPC that is running on this thread, so that one RPC asks
 * CloudTalk once per reader and replica set. {@code getBlockLocations} sorts a file's last block twice (once in the
 * block list, once as the "last located block"): for a file of one block, that was two queries, and the second,
 * seeing the first's pseudo-reservation, reserved another replica that no read would use, so concurrent readers took
 * that idle host for a busy one. Blocks of one RPC on the same replicas are read one after another by one client, so
 * they share the first one's order too.
 *
 * <p>Outside an RPC (a sort from a test or a tool) every sort asks. Concurrency: per thread; the NameNode runs each
 * RPC on one handler thread.
 */
final class CallOrders {
    /** The RPC the orders belong to: its client's id and its call id. */
    private record Call(ByteBuffer clientId, int callId) {
        static Optional<Call> current() {
            if (!Server.isRpcInvocation()) {
                return Optional.empty();
            }
            return Optional.of(new Call(ByteBuffer.wrap(Server.getClientId().clone()), Server.getCallId()));
        }
    }

    private record Key(String reader, Set<String> replicas) {}

    private static final class Orders {
        Call call;
        final Map<Key, Optional<List<String>>> byKey = new HashMap<>();
    }

    private final ThreadLocal<Orders> current = ThreadLocal.withInitial(Orders::new);

    /**
     * The order for {@code reader} over {@code replicas} already worked out in this RPC, or {@code ask}'s (kept for
     * the rest of the RPC: an empty answer too, so a failing server is not asked again for the same block).
     */
    Optional<List<String>> order(String reader, Set<String> replicas, Supplier<Optional<List<String>>> ask) {
        Optional<Call> call = Call.current();
        if (call.isEmpty()) {
            return ask.get();
        }
        Orders orders = current.get();
        if (!call.get().equals(orders.call)) {
            orders.call = call.get();
            orders.byKey.clear();
        }
        Key key = new Key(reader, Set.copyOf(replicas));
        Optional<List<String>> known = orders.byKey.get(key);
        if (known != null) {
            return known;
        }
        Optional<List<String>> asked = ask.get();
        orders.byKey.put(key, asked);
        return asked;
    }
}

package org.cloudtalk.hadoop.hdfs.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AnsweredChainsTest {
    private static final Set<String> SIX =
            Set.of("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6");
    private static final AnsweredChains.Request WRITER = new AnsweredChains.Request("10.0.0.9", 2, 1 << 20, SIX);
    private static final List<String> CHAIN_B = List.of("10.0.0.3", "10.0.0.4");
    private static final List<String> CHAIN_C = List.of("10.0.0.5", "10.0.0.6");

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final AtomicInteger expired = new AtomicInteger();
    private final AnsweredChains chains = new AnsweredChains(4, Duration.ofMillis(100), now::get, expired::addAndGet);

    @Test
    void blocksAllocatedOneAfterAnotherAskOneChainEach() {
        for (int block = 0; block < 5; block++) {
            assertThat(chains.take(WRITER)).isEmpty();
            assertThat(chains.blocksToAsk(WRITER, 3)).isEqualTo(1);
            chains.asked(WRITER, List.of());
            now.addAndGet(10_000_000L);
        }
    }

    @Test
    void blocksWaitingAtOnceAskForAsManyAsFitAndTheLeftoversGoToTheNextBlocksOnce() {
        assertThat(chains.take(WRITER)).isEmpty();
        assertThat(chains.take(WRITER)).isEmpty();
        assertThat(chains.take(WRITER)).isEmpty();
        assertThat(chains.blocksToAsk(WRITER, 3)).isEqualTo(3);
        assertThat(chains.blocksToAsk(WRITER, 2))
                .as("no more blocks than fit on distinct hosts")
                .isEqualTo(2);

        chains.asked(WRITER, List.of(CHAIN_B, CHAIN_C));

        assertThat(chains.take(WRITER)).contains(CHAIN_B);
        assertThat(chains.take(WRITER)).contains(CHAIN_C);
        assertThat(chains.take(WRITER)).isEmpty();
        assertThat(expired).hasValue(0);
    }

    @Test
    void demandIsCappedByTheSettingAndFadesWhenBlocksStopOverlapping() {
        for (int i = 0; i < 10; i++) {
            assertThat(chains.take(WRITER)).isEmpty();
        }
        assertThat(chains.blocksToAsk(WRITER, 100)).isEqualTo(4);
        for (int i = 0; i < 10; i++) {
            chains.asked(WRITER, List.of());
        }
        now.addAndGet(150_000_000L);
        assertThat(chains.blocksToAsk(WRITER, 100)).as("last window's peak").isEqualTo(4);
        now.addAndGet(200_000_000L);
        assertThat(chains.blocksToAsk(WRITER, 100)).isEqualTo(1);
    }

    @Test
    void requestsLeftIdleAreDroppedWithTheirChainsCounted() {
        for (int i = 0; i < 1024; i++) {
            AnsweredChains.Request other = new AnsweredChains.Request("10.1.0." + i, 2, 1 << 20, SIX);
            assertThat(chains.take(other)).isEmpty();
            chains.asked(other, List.of(CHAIN_B));
        }
        now.addAndGet(500_000_000L);

        assertThat(chains.take(WRITER)).isEmpty();
        assertThat(expired).as("the dropped requests' unused chains").hasValue(1024);
    }

    @Test
    void chainsOlderThanTheReuseTimeAreDroppedAndCounted() {
        assertThat(chains.take(WRITER)).isEmpty();
        chains.asked(WRITER, List.of(CHAIN_B, CHAIN_C));
        now.addAndGet(101_000_000L);

        assertThat(chains.take(WRITER)).isEmpty();
        assertThat(expired).hasValue(2);
    }

    @Test
    void aChainIsOnlyHandedOutForTheSameRequest() {
        assertThat(chains.take(WRITER)).isEmpty();
        chains.asked(WRITER, List.of(CHAIN_B));

        Set<String> oneExcluded = Set.of("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5");
        assertThat(chains.take(new AnsweredChains.Request("10.0.0.9", 2, 1 << 20, oneExcluded)))
                .isEmpty();
        assertThat(chains.take(new AnsweredChains.Request("10.0.0.8", 2, 1 << 20, SIX)))
                .isEmpty();
        assertThat(chains.take(new AnsweredChains.Request("10.0.0.9", 3, 1 << 20, SIX)))
                .isEmpty();
        assertThat(chains.take(new AnsweredChains.Request("10.0.0.9", 2, 2 << 20, SIX)))
                .isEmpty();
        assertThat(chains.take(WRITER)).contains(CHAIN_B);
    }
}

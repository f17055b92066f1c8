package org.cloudtalk.server.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ProcessorPermitsTest {
    private final ProcessorPermits permits = new ProcessorPermits(1);
    private final List<String> granted = new CopyOnWriteArrayList<>();

    /** A waiter that notes its grant, holds the permit until {@code done}, then releases it. */
    private Thread waiter(String tenant, String name, CountDownLatch done) {
        Thread thread = new Thread(() -> {
            try {
                if (permits.acquire(tenant, Duration.ofSeconds(30))) {
                    granted.add(name);
                    done.await();
                    permits.release();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        thread.start();
        return thread;
    }

    private static void awaitWaiting(Thread thread) throws InterruptedException {
        while (thread.getState() != Thread.State.TIMED_WAITING) {
            Thread.sleep(1);
        }
    }

    @Test
    void aTenantWithManyWaitingGetsOnePermitInTurnNotAllBeforeTheNext() throws Exception {
        assertThat(permits.acquire("holder", Duration.ZERO)).isTrue();
        CountDownLatch done = new CountDownLatch(0);
        List<Thread> threads = new java.util.ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            Thread thread = waiter("flood", "flood-" + i, done);
            awaitWaiting(thread);
            threads.add(thread);
        }
        Thread other = waiter("other", "other-1", done);
        awaitWaiting(other);
        threads.add(other);
        permits.release();
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        assertThat(granted).containsExactly("flood-1", "other-1", "flood-2", "flood-3", "flood-4");
        assertThat(permits.acquire("later", Duration.ZERO)).isTrue();
    }

    /**
     * A tenant that starts waiting while another's queued evaluations are being served in turn waits for the one
     * running, not for one more of the other's: it goes before tenants already served.
     */
    @Test
    void aTenantThatStartsWaitingGoesBeforeOneAlreadyServed() throws Exception {
        assertThat(permits.acquire("flood", Duration.ZERO)).isTrue();
        CountDownLatch firstDone = new CountDownLatch(1);
        CountDownLatch restDone = new CountDownLatch(1);
        Thread first = waiter("flood", "flood-1", firstDone);
        awaitWaiting(first);
        Thread second = waiter("flood", "flood-2", restDone);
        awaitWaiting(second);
        permits.release(); // the running flood evaluation ends: flood-1 runs, flood-2 waits its turn
        while (granted.isEmpty()) {
            Thread.sleep(1);
        }
        Thread other = waiter("other", "other-1", restDone);
        awaitWaiting(other);
        firstDone.countDown(); // flood-1 ends
        while (granted.size() < 2) {
            Thread.sleep(1);
        }
        assertThat(granted).containsExactly("flood-1", "other-1");
        restDone.countDown();
        for (Thread thread : List.of(first, second, other)) {
            thread.join(10_000);
        }
        assertThat(granted).containsExactly("flood-1", "other-1", "flood-2");
    }

    /**
     * Tenants asking one query at a time are fresh again each time they wait: they go ahead of a tenant with several
     * queued at most every other permit, so it is served in between and never starves.
     */
    @Test
    void freshTenantsGoAheadAtMostEveryOtherPermit() throws Exception {
        assertThat(permits.acquire("queued", Duration.ZERO)).isTrue();
        CountDownLatch firstDone = new CountDownLatch(1);
        CountDownLatch none = new CountDownLatch(0);
        List<Thread> threads = new java.util.ArrayList<>();
        threads.add(waiter("queued", "queued-1", firstDone));
        awaitWaiting(threads.get(0));
        for (int i = 2; i <= 3; i++) {
            threads.add(waiter("queued", "queued-" + i, none));
            awaitWaiting(threads.get(threads.size() - 1));
        }
        permits.release(); // queued-1 runs; queued-2 and queued-3 wait in the round
        while (granted.isEmpty()) {
            Thread.sleep(1);
        }
        for (String tenant : List.of("a", "b")) {
            threads.add(waiter(tenant, tenant + "-1", none));
            awaitWaiting(threads.get(threads.size() - 1));
        }
        firstDone.countDown();
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        assertThat(granted).containsExactly("queued-1", "a-1", "queued-2", "b-1", "queued-3");
    }

    @Test
    void aWaiterThatTimesOutLeavesNoTraceAndThePermitGoesToTheNext() throws Exception {
        assertThat(permits.acquire("holder", Duration.ZERO)).isTrue();
        assertThat(permits.acquire("late", Duration.ofMillis(20))).isFalse();
        CountDownLatch done = new CountDownLatch(1);
        Thread next = waiter("next", "next-1", done);
        awaitWaiting(next);
        permits.release();
        for (int i = 0; i < 1000 && granted.isEmpty(); i++) {
            Thread.sleep(5);
        }
        assertThat(granted).containsExactly("next-1");
        assertThat(permits.acquire("another", Duration.ofMillis(20))).isFalse();
        done.countDown();
        next.join(10_000);
        assertThat(permits.acquire("another", Duration.ZERO)).isTrue();
    }

    @Test
    void anInterruptedWaiterGivesUpItsPlace() throws Exception {
        assertThat(permits.acquire("holder", Duration.ZERO)).isTrue();
        Thread interrupted = waiter("gone", "gone-1", new CountDownLatch(0));
        awaitWaiting(interrupted);
        interrupted.interrupt();
        interrupted.join(10_000);
        permits.release();
        assertThat(granted).isEmpty();
        assertThat(permits.acquire("next", Duration.ZERO)).isTrue();
    }
}

package org.cloudtalk.itchy.technique;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ParallelTest {
    @Test
    void resultsComeBackInTheItemsOrderWhateverOrderTheCallsEndIn() throws IOException {
        List<Integer> items = IntStream.range(0, 20).boxed().toList();
        List<Integer> squares = Parallel.map(4, items, "squaring", item -> {
            sleep(20 - item); // later items end first
            return item * item;
        });
        assertThat(squares).isEqualTo(items.stream().map(item -> item * item).toList());
        assertThat(Parallel.map(4, List.<Integer>of(), "nothing", item -> item)).isEmpty();
    }

    @Test
    void aCallsIoExceptionComesThroughAsItIs() {
        assertThatThrownBy(() -> Parallel.map(3, List.of("a", "gone", "c"), "reading", item -> {
                    if (item.equals("gone")) {
                        throw new FileNotFoundException(item);
                    }
                    return item;
                }))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessage("gone");
        assertThatThrownBy(() -> Parallel.map(2, List.of(1, 0), "dividing", item -> 1 / item))
                .isInstanceOf(IOException.class)
                .hasMessage("dividing failed")
                .hasCauseInstanceOf(ArithmeticException.class);
    }

    private static void sleep(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

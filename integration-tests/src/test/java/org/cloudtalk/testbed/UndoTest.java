package org.cloudtalk.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UndoTest {
    @Test
    void eachTriesEveryItemAndThrowsTheFirstFailureWithTheRestSuppressed() {
        List<Integer> undone = new ArrayList<>();

        assertThatThrownBy(() -> Undo.each(List.of(1, 2, 3, 4), item -> {
                    undone.add(item);
                    if (item % 2 == 0) {
                        throw new TestbedException("cannot undo " + item);
                    }
                }))
                .hasMessage("cannot undo 2")
                .satisfies(e -> assertThat(e.getSuppressed())
                        .extracting(Throwable::getMessage)
                        .containsExactly("cannot undo 4"));
        assertThat(undone).containsExactly(1, 2, 3, 4);
    }

    @Test
    void onFailureUndoesAChangeThatFailedPartWayAndKeepsItsFailureFirst() {
        List<String> steps = new ArrayList<>();

        assertThatThrownBy(() -> Undo.onFailure(
                        () -> {
                            steps.add("half done");
                            throw new TestbedException("change failed");
                        },
                        () -> {
                            steps.add("undone");
                            throw new TestbedException("undo failed too");
                        }))
                .hasMessage("change failed")
                .satisfies(e -> assertThat(e.getSuppressed())
                        .extracting(Throwable::getMessage)
                        .containsExactly("undo failed too"));
        assertThat(steps).containsExactly("half done", "undone");

        steps.clear();
        Undo.onFailure(() -> steps.add("done"), () -> steps.add("undone"));
        assertThat(steps).containsExactly("done");
    }
}

package org.cloudtalk.lang.ast;

import static java.util.Objects.requireNonNull;

import org.cloudtalk.lang.Span;

/** How a reference names its flow: by name ({@code r(f2)}) or by its 1-based position in the query ({@code r(2)}). */
public sealed interface FlowSelector extends Node {
    record ByName(String name, Span span) implements FlowSelector {
        public ByName {
            requireNonNull(name, "name is null");
            requireNonNull(span, "span is null");
        }

        @Override
        public String toString() {
            return name;
        }
    }

    record ByPosition(int position, Span span) implements FlowSelector {
        public ByPosition {
            requireNonNull(span, "span is null");
            if (position < 1) {
                throw new IllegalArgumentException("flow positions start at 1: " + position);
            }
        }

        @Override
        public String toString() {
            return Integer.toString(position);
        }
    }
}

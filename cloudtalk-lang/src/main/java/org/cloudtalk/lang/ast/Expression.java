package org.cloudtalk.lang.ast;

import static java.util.Objects.requireNonNull;

import org.cloudtalk.lang.Span;

/** A value in a flow description: literal, reference to another flow's attribute, or arithmetic over them. */
public sealed interface Expression extends Node {
    /** {@code number} written with {@code unit}; {@link #value()} is in the unit's base (bytes, bytes/s, s). */
    record Number(double number, Unit unit, Span span) implements Expression {
        public Number {
            requireNonNull(unit, "unit is null");
            requireNonNull(span, "span is null");
            if (!Double.isFinite(number) || number < 0) {
                throw new IllegalArgumentException("a literal is a finite non-negative number: " + number);
            }
        }

        public double value() {
            return number * unit.multiplier();
        }
    }

    /** {@code st(f) e(f) sz(f) r(f) t(f)}. */
    record Reference(Attribute attribute, FlowSelector flow, Span span) implements Expression {
        public Reference {
            requireNonNull(attribute, "attribute is null");
            requireNonNull(flow, "flow is null");
            requireNonNull(span, "span is null");
        }
    }

    record Binary(Operator operator, Expression left, Expression right, Span span) implements Expression {
        public Binary {
            requireNonNull(operator, "operator is null");
            requireNonNull(left, "left is null");
            requireNonNull(right, "right is null");
            requireNonNull(span, "span is null");
        }
    }
}

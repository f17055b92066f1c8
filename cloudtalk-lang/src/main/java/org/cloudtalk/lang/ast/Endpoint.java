package org.cloudtalk.lang.ast;

import static java.util.Objects.requireNonNull;

import org.cloudtalk.lang.Span;

/** One end of a flow, or one candidate value of a variable. */
public sealed interface Endpoint extends Node {
    /** A declared variable; CloudTalk binds it to one of its candidates. */
    record Variable(String name, Span span) implements Endpoint {
        public Variable {
            requireNonNull(name, "name is null");
            requireNonNull(span, "span is null");
        }
    }

    /** A particular host. */
    record Host(Address address, Span span) implements Endpoint {
        public Host {
            requireNonNull(address, "address is null");
            requireNonNull(span, "span is null");
            if (address.isUnspecified()) {
                throw new IllegalArgumentException("the unspecified address is UnknownSource, not a Host");
            }
        }
    }

    /** The local disk of the host at the other end of the flow. */
    record Disk(Span span) implements Endpoint {
        public Disk {
            requireNonNull(span, "span is null");
        }
    }

    /** {@code 0.0.0.0}: data arrives from somewhere CloudTalk does not know (e.g. outside the cloud). */
    record UnknownSource(Span span) implements Endpoint {
        public UnknownSource {
            requireNonNull(span, "span is null");
        }
    }

    /** The endpoint for an address literal: {@link UnknownSource} for 0.0.0.0 and ::, a {@link Host} otherwise. */
    static Endpoint of(Address address, Span span) {
        return address.isUnspecified() ? new UnknownSource(span) : new Host(address, span);
    }
}

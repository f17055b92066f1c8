package org.cloudtalk.lang.ast;

import org.cloudtalk.lang.Span;

/** Every AST node knows where it came from. */
public interface Node {
    Span span();
}

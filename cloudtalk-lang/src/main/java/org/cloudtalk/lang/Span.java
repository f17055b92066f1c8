package org.cloudtalk.lang;

/**
 * Where a piece of a query stands in its source text: 1-based line and column of the first character, and of the
 * character just after the last. Nodes built programmatically carry {@link #NONE}.
 */
public record Span(int line, int column, int endLine, int endColumn) {
    public static final Span NONE = new Span(0, 0, 0, 0);

    public Span {
        if (line < 0 || column < 0 || endLine < line || (endLine == line && endColumn < column)) {
            throw new IllegalArgumentException("invalid span " + line + ":" + column + "-" + endLine + ":" + endColumn);
        }
    }

    public static Span at(int line, int column) {
        return new Span(line, column, line, column);
    }

    public boolean isKnown() {
        return line > 0;
    }

    /** The smallest span covering both. */
    public Span to(Span end) {
        if (!isKnown()) {
            return end;
        }
        if (!end.isKnown()) {
            return this;
        }
        return new Span(line, column, end.endLine, end.endColumn);
    }

    @Override
    public String toString() {
        return "line " + line + ":" + column;
    }
}

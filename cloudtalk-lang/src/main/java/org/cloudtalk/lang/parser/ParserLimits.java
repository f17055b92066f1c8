package org.cloudtalk.lang.parser;

/**
 * Bounds that keep hostile or accidental input from costing more than a clear error: the parser and every tree walk
 * over the AST recurse, so nesting and expression length are capped before parsing starts.
 *
 * @param maxQueryChars longest accepted query text
 * @param maxNestingDepth deepest parenthesis nesting
 * @param maxExpressionOperators most operators in one attribute value
 */
public record ParserLimits(int maxQueryChars, int maxNestingDepth, int maxExpressionOperators) {
    public static final ParserLimits DEFAULT = new ParserLimits(1 << 20, 32, 256);

    public ParserLimits {
        if (maxQueryChars < 1 || maxNestingDepth < 1 || maxExpressionOperators < 1) {
            throw new IllegalArgumentException("parser limits must be positive: " + maxQueryChars + ", "
                    + maxNestingDepth + ", " + maxExpressionOperators);
        }
        // Deeper trees risk StackOverflowError in the recursive walks on a default 512 KiB thread stack.
        if (maxNestingDepth > 128 || maxExpressionOperators > 1024) {
            throw new IllegalArgumentException("parser limits too large for safe recursion: nesting " + maxNestingDepth
                    + " (max 128), operators " + maxExpressionOperators + " (max 1024)");
        }
    }
}

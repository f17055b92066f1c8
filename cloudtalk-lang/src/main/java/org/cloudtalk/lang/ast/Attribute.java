package org.cloudtalk.lang.ast;

import java.util.Optional;

/**
 * The five flow attributes of Table 1. Static ones (start, end, size) never change once known; dynamic ones (rate,
 * transfer) vary while the flow runs.
 */
public enum Attribute {
    START("start", "st", Dimension.TIME, true),
    END("end", "e", Dimension.TIME, true),
    SIZE("size", "sz", Dimension.BYTES, true),
    RATE("rate", "r", Dimension.RATE, false),
    TRANSFER("transfer", "t", Dimension.BYTES, false);

    private final String keyword;
    private final String referenceFunction;
    private final Dimension dimension;
    private final boolean isStatic;

    Attribute(String keyword, String referenceFunction, Dimension dimension, boolean isStatic) {
        this.keyword = keyword;
        this.referenceFunction = referenceFunction;
        this.dimension = dimension;
        this.isStatic = isStatic;
    }

    private static final Attribute[] VALUES = values();

    public static Optional<Attribute> byReferenceFunction(String name) {
        for (Attribute attribute : VALUES) {
            if (attribute.referenceFunction.equals(name)) {
                return Optional.of(attribute);
            }
        }
        return Optional.empty();
    }

    /** The word that restricts it in a flow description, e.g. {@code size}. */
    public String keyword() {
        return keyword;
    }

    /** The function that refers to it, e.g. {@code sz} in {@code sz(f1)}. */
    public String referenceFunction() {
        return referenceFunction;
    }

    public Dimension dimension() {
        return dimension;
    }

    public boolean isStatic() {
        return isStatic;
    }
}

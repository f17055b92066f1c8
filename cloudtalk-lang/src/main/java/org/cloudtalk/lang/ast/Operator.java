package org.cloudtalk.lang.ast;

/** Arithmetic operators with their binding strength; all are left-associative. */
public enum Operator {
    ADD("+", 1),
    SUBTRACT("-", 1),
    MULTIPLY("*", 2),
    DIVIDE("/", 2);

    private final String symbol;
    private final int precedence;

    Operator(String symbol, int precedence) {
        this.symbol = symbol;
        this.precedence = precedence;
    }

    public static Operator bySymbol(String symbol) {
        for (Operator operator : values()) {
            if (operator.symbol.equals(symbol)) {
                return operator;
            }
        }
        throw new IllegalArgumentException("unknown operator: " + symbol);
    }

    public String symbol() {
        return symbol;
    }

    public int precedence() {
        return precedence;
    }

    public double apply(double left, double right) {
        return switch (this) {
            case ADD -> left + right;
            case SUBTRACT -> left - right;
            case MULTIPLY -> left * right;
            case DIVIDE -> left / right;
        };
    }
}

package org.cloudtalk.lang;

/** Stable identifiers of everything that can be wrong with a query; clients may switch on them. */
public enum ErrorCode {
    // Syntax and lexical form
    SYNTAX_ERROR,
    INPUT_TOO_LARGE,
    NESTING_TOO_DEEP,
    EXPRESSION_TOO_LONG,
    INVALID_ADDRESS,
    INVALID_NUMBER,
    UNKNOWN_UNIT,
    UNKNOWN_FUNCTION,
    INVALID_NAME,
    DUPLICATE_ATTRIBUTE,
    // Semantics
    UNDECLARED_VARIABLE,
    DUPLICATE_VARIABLE,
    DUPLICATE_FLOW,
    EMPTY_CANDIDATES,
    DUPLICATE_CANDIDATE,
    INVALID_CANDIDATE,
    DISK_TO_DISK,
    DISK_WITHOUT_HOST,
    SAME_ENDPOINT,
    UNKNOWN_SOURCE_AS_DESTINATION,
    UNKNOWN_FLOW,
    UNKNOWN_ATTRIBUTE_VALUE,
    SELF_REFERENCE,
    CYCLIC_DEPENDENCY,
    UNIT_MISMATCH,
    INVALID_VALUE
}

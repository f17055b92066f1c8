package org.cloudtalk.status.wire;

/** Why a datagram was dropped without an answer. Every reason is counted. */
public enum DropReason {
    TOO_SHORT,
    TOO_LONG,
    BAD_MAGIC,
    UNSUPPORTED_VERSION,
    WRONG_TYPE,
    BAD_MAC,
    MALFORMED,
    TOO_MANY_ENDPOINTS,
    STALE,
    REPLAYED,
    REPLAY_CACHE_FULL,
    RATE_LIMITED
}

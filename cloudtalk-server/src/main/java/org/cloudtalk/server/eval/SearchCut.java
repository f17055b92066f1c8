package org.cloudtalk.server.eval;

/**
 * Why a search answered with its best binding so far instead of finishing: operators count these answers by cause
 * ({@code cloudtalk_refined_cut_total}), which the answer's notes alone do not let them do.
 */
public enum SearchCut {
    /** No search permit came free within the time the search may take. */
    NO_PERMIT,
    /** The time the search may take ran out. */
    SEARCH_TIME,
    /** The starting binding could not be simulated within {@code limits.estimator.events}. */
    ESTIMATOR_EVENTS
}

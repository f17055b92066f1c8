package org.cloudtalk.server.query;

/**
 * What one tenant may ask (§5.5: limit the arrival rate and the computation per query).
 *
 * @param maxQueryChars longest query text
 * @param maxFlows most flows in a query
 * @param maxVariables most variables in a query
 * @param maxCandidates most candidate values over all variables
 * @param maxExhaustiveBindings largest search space the exhaustive evaluator may take on, in bindings without the
 *     symmetric duplicates of interchangeable variables
 * @param queriesPerSecond sustained query rate per tenant
 * @param burst queries a tenant may send at once
 * @param maxBindingFlows most bindings scored times flows per binding: the cost of a search (exhaustive is refused
 *     above it, refined scores fewer bindings)
 * @param maxEstimatorEvents most events one run of the flow estimator may simulate
 */
public record TenantLimits(
        int maxQueryChars,
        int maxFlows,
        int maxVariables,
        int maxCandidates,
        long maxExhaustiveBindings,
        double queriesPerSecond,
        int burst,
        long maxBindingFlows,
        int maxEstimatorEvents) {
    public static final long DEFAULT_MAX_BINDING_FLOWS = 1_000_000;
    public static final int DEFAULT_MAX_ESTIMATOR_EVENTS = 100_000;
    public static final TenantLimits DEFAULT = new TenantLimits(256 * 1024, 1_000, 100, 10_000, 100_000, 1_000, 200);

    /** With the default cost limits. */
    public TenantLimits(
            int maxQueryChars,
            int maxFlows,
            int maxVariables,
            int maxCandidates,
            long maxExhaustiveBindings,
            double queriesPerSecond,
            int burst) {
        this(
                maxQueryChars,
                maxFlows,
                maxVariables,
                maxCandidates,
                maxExhaustiveBindings,
                queriesPerSecond,
                burst,
                DEFAULT_MAX_BINDING_FLOWS,
                DEFAULT_MAX_ESTIMATOR_EVENTS);
    }

    public TenantLimits {
        if (maxQueryChars < 1
                || maxFlows < 1
                || maxVariables < 1
                || maxCandidates < 1
                || maxExhaustiveBindings < 1
                || !(queriesPerSecond > 0)
                || burst < 1
                || maxBindingFlows < 1
                || maxEstimatorEvents < 1) {
            throw new IllegalArgumentException("tenant limits must be positive");
        }
    }
}

package org.cloudtalk.server.query;

/**
 * What one tenant may ask (§5.5: limit the arrival rate and the computation per query).
 *
 * @param maxQueryChars longest query text
 * @param maxFlows most flows in a query
 * @param maxVariables most variables in a query
 * @param maxCandidates most candidate values over all variables
 * @param maxExhaustiveBindings largest search space the exhaustive evaluator may take on
 * @param queriesPerSecond sustained query rate per tenant
 * @param burst queries a tenant may send at once
 */
public record TenantLimits(
        int maxQueryChars,
        int maxFlows,
        int maxVariables,
        int maxCandidates,
        long maxExhaustiveBindings,
        double queriesPerSecond,
        int burst) {
    public static final TenantLimits DEFAULT = new TenantLimits(256 * 1024, 1_000, 100, 10_000, 100_000, 1_000, 200);

    public TenantLimits {
        if (maxQueryChars < 1
                || maxFlows < 1
                || maxVariables < 1
                || maxCandidates < 1
                || maxExhaustiveBindings < 1
                || !(queriesPerSecond > 0)
                || burst < 1) {
            throw new IllegalArgumentException("tenant limits must be positive");
        }
    }
}

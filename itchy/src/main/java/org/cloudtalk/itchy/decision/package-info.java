/**
 * Internal: the decision model (Algorithm 2) choosing a technique for a first job in {@code itchy.mode=auto}, from a
 * sample of the job's map ({@link org.cloudtalk.itchy.decision.MapSampler}). Public only for the other Itchy
 * packages.
 */
package org.cloudtalk.itchy.decision;

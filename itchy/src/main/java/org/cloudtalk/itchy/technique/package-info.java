/**
 * Internal: what the driver ({@code ItchyJob}), the three techniques and the tasks share — the plan each technique
 * implements ({@link org.cloudtalk.itchy.technique.TechniquePlan}), the run its tasks are told of
 * ({@link org.cloudtalk.itchy.technique.Run}), the driver services a plan may use
 * ({@link org.cloudtalk.itchy.technique.Driver}), the settings the tasks read
 * ({@link org.cloudtalk.itchy.technique.TaskSettings}, under {@link org.cloudtalk.itchy.technique.TaskKeys}),
 * serialization helpers and a bounded parallel map for the driver's remote calls. Public only for the other Itchy
 * packages.
 */
package org.cloudtalk.itchy.technique;

/**
 * Internal: the MapReduce task side — the mapper, combiner and reducer that wrap the user's, the output format of
 * the differential output (and its tombstones), what the driver tells its tasks ({@link
 * org.cloudtalk.itchy.task.TaskSettings}, {@link org.cloudtalk.itchy.task.TaskKeys}), a task's recorded failure
 * and the jars shipped to YARN. Public only for the driver and the techniques; the Hadoop job configuration names
 * these classes for the run's duration only (nothing stored in HBase names an Itchy class).
 */
package org.cloudtalk.itchy.task;

/**
 * Internal: the MapReduce task side — the mapper, combiner and reducer that wrap the user's, the output format of
 * the differential output (and its tombstones), a task's recorded failure and the jars shipped to YARN. Public only
 * for the root package (the driver and the output reader); the Hadoop job configuration names these classes for a
 * run's duration only (nothing Itchy stores in HBase or in its outputs names an Itchy class).
 */
package org.cloudtalk.itchy.task;

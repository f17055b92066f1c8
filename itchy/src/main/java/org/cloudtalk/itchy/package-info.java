/**
 * Itchy: an ordinary MapReduce job made incremental over a growing input (docs/itchy.md). The user API is
 * {@link org.cloudtalk.itchy.ItchyJob} (also the orchestrator of every run), {@link org.cloudtalk.itchy.ItchyConf},
 * {@link org.cloudtalk.itchy.ItchyMode}, {@link org.cloudtalk.itchy.MergeFunction},
 * {@link org.cloudtalk.itchy.ItchyOutput}, {@link org.cloudtalk.itchy.ItchyCounters},
 * {@link org.cloudtalk.itchy.ItchyException} and the command line {@link org.cloudtalk.itchy.ItchyTool}.
 *
 * <p>Everything public in the subpackages ({@code store}, {@code technique}, {@code qmc}, {@code mo}, {@code merge},
 * {@code decision}, {@code task}) is internal: public only so that the driver, the techniques and the MapReduce tasks
 * can live in packages by concern; it may change in any release.
 */
package org.cloudtalk.itchy;

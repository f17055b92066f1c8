package org.cloudtalk.itchy.technique;

import java.util.List;

/**
 * Configuration keys the driver ({@code ItchyJob}) sets for its tasks; users set {@code ItchyConf}'s, never these.
 * Internal: public only because the driver, the tasks and the techniques live in packages of their own.
 */
public final class TaskKeys {
    /** Every key here starts with one of these: a user's setting never does. */
    public static final List<String> PREFIXES = List.of("itchy.user.", "itchy.task.");

    public static final String USER_MAPPER = "itchy.user.mapper";
    public static final String USER_REDUCER = "itchy.user.reducer";
    public static final String USER_COMBINER = "itchy.user.combiner";
    public static final String USER_MAP_KEY = "itchy.user.map.key";
    public static final String USER_MAP_VALUE = "itchy.user.map.value";
    public static final String TASK_MODE = "itchy.task.mode";
    /** Whether the job's reducers store incremental data (a QMC increment's key pass does, its main job not). */
    public static final String STORES = "itchy.task.stores";

    public static final String SIGNATURE = "itchy.task.signature";
    public static final String INCREMENT = "itchy.task.increment";
    /** The generation this run stores its cells under ({@code ItchyStore.newGeneration}). */
    public static final String GENERATION = "itchy.task.generation";
    /** The committed generations, whose cells the run reads. */
    public static final String VISIBLE = "itchy.task.visible";

    public static final String DATASETS = "itchy.task.datasets";
    public static final String OUTPUT_DATASET = "itchy.task.output.dataset";
    public static final String OUTPUT_DIRS = "itchy.task.output.dirs";
    /** The timestamp of every cell a run stores: one per run, set by the driver, whichever task writes the cell. */
    public static final String TIMESTAMP = "itchy.task.timestamp";

    /** Where a failing task records what it failed with ({@code task.TaskFailure}). */
    public static final String FAILURES = "itchy.task.failures";

    public static final String RELEVANT_KEYS = "itchy.task.relevant.keys";
    public static final String RELEVANT_OFFSETS = "itchy.task.relevant.offsets";
    public static final String RELEVANT_OFFSET_SLICES = "itchy.task.relevant.offset.slices";
    public static final String NEW_DATASETS = "itchy.task.new.datasets";
    /** Where an MO increment's map tasks note the keys they emit ({@code mo.TouchedKeys}). */
    public static final String MO_TOUCHED_KEYS = "itchy.task.mo.touched.keys";

    private TaskKeys() {}
}

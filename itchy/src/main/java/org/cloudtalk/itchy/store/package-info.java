/**
 * Internal: the storage boundary. {@link org.cloudtalk.itchy.store.ItchyStore} owns the HBase layout (families,
 * qualifiers, generations, the job record and its atomic commit); {@link org.cloudtalk.itchy.store.BulkCells} writes a
 * run's cells as HFiles and bulk-loads them, {@link org.cloudtalk.itchy.store.RowBatch} reads many keys' rows at
 * once. Public only for the other Itchy packages.
 */
package org.cloudtalk.itchy.store;

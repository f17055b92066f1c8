/**
 * Internal: MO (map outputs) — the touched keys an increment's map tasks note, the reducers' read-ahead of
 * those keys' stored intermediate values, and the combining of stored values. Public only for the other Itchy
 * packages.
 */
package org.cloudtalk.itchy.mo;

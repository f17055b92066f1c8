/**
 * Internal: Merge (§5.4.3) — the increment reduces the appended records only and its output format merges each new
 * record with the key's latest one through the user's {@code MergeFunction} ({@code task.ItchyOutputFormat}).
 * Public only for the other Itchy packages.
 */
package org.cloudtalk.itchy.merge;

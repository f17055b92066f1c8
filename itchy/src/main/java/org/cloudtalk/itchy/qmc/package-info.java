/**
 * Internal: QMC (query metadata checkpoints) — the increment's key pass, the look-up of the touched keys' base
 * record offsets, the input format that re-reads only those records, and which inputs QMC cannot re-read. Public
 * only for the other Itchy packages.
 */
package org.cloudtalk.itchy.qmc;

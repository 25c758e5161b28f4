/** Evaluation passes: executes the core selection policy with the stdio prober and the cache. */
@NullMarked
package dev.kcshare.host.evaluation;

import org.jspecify.annotations.NullMarked;

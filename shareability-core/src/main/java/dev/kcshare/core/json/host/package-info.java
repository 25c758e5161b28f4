/**
 * JSON helpers of kcshare's own, exported to the command-line module alone: the code-point order of
 * every sorted map and list in the formats ({@link CodePoints}), predicates over plain JSON values
 * ({@link JsonValues}), and the exception for input JSON of the wrong form ({@link
 * JsonInputException}).
 */
@NullMarked
package dev.kcshare.core.json.host;

import org.jspecify.annotations.NullMarked;

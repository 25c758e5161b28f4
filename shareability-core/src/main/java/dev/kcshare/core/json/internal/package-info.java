/**
 * JSON helpers of kcshare's own, exported to the command-line module alone: the code-point order of
 * every sorted map and list in the formats ({@link CodePoints}), predicates over plain JSON values
 * ({@link JsonValues}, {@link Values}), immutable sorted copies ({@link Maps}), and the exception
 * for input JSON of the wrong form ({@link JsonInputException}). It depends on no other package of
 * kcshare, so the record codecs and their companions can both build on it.
 */
@NullMarked
package dev.kcshare.core.json.internal;

import org.jspecify.annotations.NullMarked;

/**
 * The verdict's forms that only kcshare's commands use, exported to the command-line module alone:
 * the JSON evidence form of {@code kcshare assess --evidence} ({@link EvidenceJson}, {@link
 * EvidenceDocument}, {@link EvidenceInput}) and the JSON forms of a verdict ({@link VerdictJson}).
 * Pure, like the engine ({@code dev.kcshare.core.verdict}), on which it builds; the engine never
 * depends on it.
 */
@NullMarked
package dev.kcshare.core.verdict.internal;

import org.jspecify.annotations.NullMarked;

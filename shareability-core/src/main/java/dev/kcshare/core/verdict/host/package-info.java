/**
 * The verdict's forms that only kcshare's commands use, exported to the command-line module alone:
 * the JSON evidence form of {@code kcshare assess --evidence} ({@link EvidenceJson}, {@link
 * EvidenceDocument}, {@link EvidenceInput}), the JSON forms of a verdict ({@link VerdictJson}), and
 * the env-name prefix lists the verdict, the env hash and the bulk-stub check share ({@link
 * SecretPrefixes}). Pure, like the engine ({@code dev.kcshare.core.verdict}).
 */
@NullMarked
package dev.kcshare.core.verdict.host;

import org.jspecify.annotations.NullMarked;

/**
 * The embedding facade: everything a Java MCP gateway does with kcshare starts at {@link
 * dev.kcshare.embed.Shareability} ({@code AutoCloseable}), which hands out the ledger writer
 * ({@link dev.kcshare.embed.LedgerWriter}) and the handle on a background pass ({@link
 * dev.kcshare.embed.BackgroundPass}). The values it takes and returns live one layer down, in
 * {@code dev.kcshare.api}, beside the core's exported packages. Every public signature here uses
 * only the JDK, those packages and this one. See {@code docs/embedding.md} and {@code
 * docs/design.md#layers}.
 */
@NullMarked
package dev.kcshare.embed;

import org.jspecify.annotations.NullMarked;

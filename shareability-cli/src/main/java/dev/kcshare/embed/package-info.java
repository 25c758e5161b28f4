/**
 * The embedding API, the only package the {@code dev.kcshare.cli} module exports: everything a Java
 * MCP gateway needs to add shareability verdicts, through one facade ({@link
 * dev.kcshare.embed.Shareability}, {@code AutoCloseable}) and the value types it owns ({@link
 * dev.kcshare.embed.ServerDefinition}, {@link dev.kcshare.embed.ConfiguredServer} with its {@link
 * dev.kcshare.embed.ConfiguredDefinition}s and {@link dev.kcshare.embed.UnresolvedVariable}s,
 * {@link dev.kcshare.embed.ServerVerdict}, {@link dev.kcshare.embed.PassResult}, {@link
 * dev.kcshare.embed.PassProgress}), the ledger writer ({@link dev.kcshare.embed.LedgerWriter},
 * whose {@code record} answers a {@link dev.kcshare.embed.RecordResult}) and the handle on a
 * background pass ({@link dev.kcshare.embed.BackgroundPass}). An environment problem is a {@link
 * dev.kcshare.embed.RecordsException}, the one checked exception for it. Every public signature
 * here uses only the JDK, this package and the core's exported packages. See {@code
 * docs/embedding.md}.
 */
@NullMarked
package dev.kcshare.embed;

import org.jspecify.annotations.NullMarked;

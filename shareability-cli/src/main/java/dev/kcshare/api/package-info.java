/**
 * The values of the embedding API, below the library that produces them: a server as configured
 * ({@link dev.kcshare.api.ServerDefinition}, {@link dev.kcshare.api.ConfiguredServer} with its
 * {@link dev.kcshare.api.ConfiguredDefinition}s and {@link dev.kcshare.api.UnresolvedVariable}s,
 * {@link dev.kcshare.api.HostServers} and its {@link dev.kcshare.api.ConfigFile}s), what a pass
 * takes and gives ({@link dev.kcshare.api.PassOptions}, {@link dev.kcshare.api.PassProgress},
 * {@link dev.kcshare.api.PassResult}), a verdict row ({@link dev.kcshare.api.ServerVerdict}), the
 * record files as read ({@link dev.kcshare.host.report.RecordsSnapshot}), what a recording site is
 * told ({@link dev.kcshare.api.RecordResult}) and the one checked exception for an environment
 * problem ({@link dev.kcshare.api.RecordsException}).
 *
 * <p>What kcshare returns is declared as interfaces it implements (the records behind them are in a
 * package that is not exported), and what an embedder passes in is a final class built with
 * factories, builders and copies: no type here is a record, and none but the exception has a public
 * constructor, so any of them can gain a member without breaking a caller.
 *
 * <p>This package imports nothing of kcshare but the core: the library packages ({@code
 * dev.kcshare.host}) and the facade ({@code dev.kcshare.embed}) both build on it, and neither is
 * reachable from it (docs/design.md#layers).
 */
@NullMarked
package dev.kcshare.api;

import org.jspecify.annotations.NullMarked;

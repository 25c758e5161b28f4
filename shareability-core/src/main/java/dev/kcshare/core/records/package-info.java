/**
 * The two record files as pure values and codecs: the observed-hazard ledger ({@link
 * dev.kcshare.core.records.HazardLedger}, {@link dev.kcshare.core.records.LedgerCodec}), the
 * pre-flight verdict cache ({@link dev.kcshare.core.records.VerdictCache}, {@link
 * dev.kcshare.core.records.CacheCodec}) and the execution identities both are keyed by ({@link
 * dev.kcshare.core.records.ExecutionIdentity}, {@link dev.kcshare.core.records.IdentityHashes}).
 * The file formats are interop contracts with the Kiro Crew gateway. File I/O, locks and
 * fingerprints are the caller's ({@code dev.kcshare.host.records}).
 */
@NullMarked
package dev.kcshare.core.records;

import org.jspecify.annotations.NullMarked;

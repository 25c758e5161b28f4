/**
 * The record files on disk: where they live ({@link dev.kcshare.host.records.RecordsDirectory}),
 * tolerant reads and atomic writes ({@link dev.kcshare.host.records.RecordFile}), the ledger writer
 * ({@link dev.kcshare.host.records.LedgerStore}), the locked cache session ({@link
 * dev.kcshare.host.records.CacheStore}) and launch fingerprints ({@link
 * dev.kcshare.host.records.Fingerprints}).
 */
@NullMarked
package dev.kcshare.host.records;

import org.jspecify.annotations.NullMarked;

/**
 * The record files on disk: where they live ({@link dev.kcshare.cli.records.RecordsDirectory}),
 * tolerant reads and atomic writes ({@link dev.kcshare.cli.records.RecordFile}), the ledger writer
 * ({@link dev.kcshare.cli.records.LedgerStore}), the locked cache session ({@link
 * dev.kcshare.cli.records.CacheStore}) and launch fingerprints ({@link
 * dev.kcshare.cli.records.Fingerprints}).
 */
@NullMarked
package dev.kcshare.cli.records;

import org.jspecify.annotations.NullMarked;

/**
 * What only kcshare's own passes and commands keep or check beside the two record files, exported
 * to the command-line module alone: the failed-attempts memory and its file ({@link
 * FailedAttempts}, {@link AttemptsCodec}, {@link AttemptsLoad}, {@link AttemptRecord}), the records
 * directory's trust rule ({@link DirectoryTrust}), why two identities differ ({@link
 * IdentityDifference}). The record files themselves, and the writers' limits, are {@code
 * dev.kcshare.core.records}; the JSON value helpers both use are {@code
 * dev.kcshare.core.json.internal}.
 */
@NullMarked
package dev.kcshare.core.records.internal;

import org.jspecify.annotations.NullMarked;

/**
 * What only kcshare's own passes and commands keep or check beside the two record files, exported
 * to the command-line module alone: the failed-attempts memory and its file ({@link
 * FailedAttempts}, {@link AttemptsCodec}, {@link AttemptsLoad}, {@link AttemptRecord}), the records
 * directory's trust rule ({@link DirectoryTrust}), why two identities differ ({@link
 * IdentityDifference}), the writers' limits ({@link RecordLimits}), and the JSON value helpers the
 * codecs share ({@link Values}, {@link Maps}). The record files themselves are {@code
 * dev.kcshare.core.records}.
 */
@NullMarked
package dev.kcshare.core.records.host;

import org.jspecify.annotations.NullMarked;

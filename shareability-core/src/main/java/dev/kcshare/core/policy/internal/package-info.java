/**
 * The policies only kcshare's passes and commands apply, exported to the command-line module alone:
 * which servers a pass measures ({@link Selection}), which launches need a version re-check ({@link
 * RuntimeResolved}), back-off after failed attempts and the advice shown for them ({@link Backoff},
 * {@link FailureAdvice}), which definitions are stdio ({@link Transport}), the Kiro Crew home check
 * ({@link KiroCrewHome}) and the skipped-file warnings ({@link SkippedFileWarnings}). All pure.
 * What an embedder applies is {@code dev.kcshare.core.policy}.
 */
@NullMarked
package dev.kcshare.core.policy.internal;

import org.jspecify.annotations.NullMarked;

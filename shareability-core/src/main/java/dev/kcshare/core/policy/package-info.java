/**
 * The policies around the verdict: which servers a pass measures ({@link Selection}), how evidence
 * is assembled from config and records ({@link EvidenceAssembly}), seeding ({@link Seeding}) and
 * bulk-stub eligibility ({@link Eligibility}). All pure: the caller loads config and records, holds
 * the locks and writes the files.
 */
@NullMarked
package dev.kcshare.core.policy;

import org.jspecify.annotations.NullMarked;

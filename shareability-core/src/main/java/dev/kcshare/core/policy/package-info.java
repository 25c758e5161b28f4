/**
 * The policies around the verdict: how evidence is assembled from config and records ({@link
 * EvidenceAssembly}, {@link ServerFacts}, {@link DefinitionFacts}), seeding of the Kiro Crew config
 * ({@link Seeding}), and bulk-stub eligibility ({@link Eligibility}). All pure: the caller loads
 * config and records, holds the locks and writes the files. What only kcshare's passes and commands
 * apply (selection, back-off, the seeding of mcphub's and 1MCP's files) is {@code
 * dev.kcshare.core.policy.internal}, exported to the command-line module alone.
 */
@NullMarked
package dev.kcshare.core.policy;

import org.jspecify.annotations.NullMarked;

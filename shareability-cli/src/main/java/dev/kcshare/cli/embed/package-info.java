/**
 * The embedding API: everything a Java MCP gateway needs to add shareability verdicts, in one
 * facade ({@link dev.kcshare.cli.embed.Shareability}). See {@code docs/embedding.md}.
 */
@NullMarked
package dev.kcshare.cli.embed;

import org.jspecify.annotations.NullMarked;

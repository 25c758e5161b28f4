/**
 * The embedding API: everything a Java MCP gateway needs to add shareability verdicts, in one
 * facade ({@link dev.kcshare.embed.Shareability}). See {@code docs/embedding.md}.
 */
@NullMarked
package dev.kcshare.embed;

import org.jspecify.annotations.NullMarked;

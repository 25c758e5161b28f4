/**
 * Seeding of gateways other than Kiro Crew (mcphub, 1MCP): finding and reading their files, the
 * minimal edit of an entry's isolation switch, and kcshare's own per-gateway seed markers in the
 * records directory (docs/seeding.md, Other gateways).
 */
@NullMarked
package dev.kcshare.host.seeding;

import org.jspecify.annotations.NullMarked;

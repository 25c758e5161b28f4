/** Verdict reports: every configured server's verdict from config and the loaded records. */
@NullMarked
package dev.kcshare.host.report;

import org.jspecify.annotations.NullMarked;

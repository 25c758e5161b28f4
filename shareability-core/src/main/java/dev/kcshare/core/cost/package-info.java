/**
 * What a session costs: the footprint of one server measured in its pre-flight ({@link
 * dev.kcshare.core.cost.SessionCost}), the arithmetic of {@code kcshare cost} over verdicts and
 * those figures ({@link dev.kcshare.core.cost.CostReport}), and pure parsers of the Linux {@code
 * /proc} text the figures are read from ({@link dev.kcshare.core.cost.host.ProcText}). Reading
 * {@code /proc} is the caller's ({@code dev.kcshare.host.prober}).
 */
@NullMarked
package dev.kcshare.core.cost;

import org.jspecify.annotations.NullMarked;

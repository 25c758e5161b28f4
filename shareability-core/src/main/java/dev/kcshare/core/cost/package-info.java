/**
 * What a session costs: the footprint of one server measured in its pre-flight ({@link
 * dev.kcshare.core.cost.SessionCost}), the arithmetic of {@code kcshare cost} over verdicts and
 * those figures ({@link dev.kcshare.core.cost.CostReport}). The pure parsers of the Linux {@code
 * /proc} text the figures are read from are {@code dev.kcshare.core.cost.internal}, exported to the
 * command-line module alone; reading {@code /proc} is the prober's.
 */
@NullMarked
package dev.kcshare.core.cost;

import org.jspecify.annotations.NullMarked;

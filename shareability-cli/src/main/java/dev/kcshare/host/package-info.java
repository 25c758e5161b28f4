/**
 * The host side of kcshare: everything that reads or writes the host it runs on, below the command
 * layer and the embedding facade. {@link dev.kcshare.host.HostContext} is what these packages take
 * from the host; {@link dev.kcshare.host.BadInputException} is how they refuse unusable input.
 */
@NullMarked
package dev.kcshare.host;

import org.jspecify.annotations.NullMarked;

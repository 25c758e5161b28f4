@NullMarked
package dev.kcshare.core.handshake;

import org.jspecify.annotations.NullMarked;

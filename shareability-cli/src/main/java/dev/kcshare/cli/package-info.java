@NullMarked
package dev.kcshare.cli;

import org.jspecify.annotations.NullMarked;

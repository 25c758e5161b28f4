@NullMarked
package dev.kcshare.cli.log;

import org.jspecify.annotations.NullMarked;

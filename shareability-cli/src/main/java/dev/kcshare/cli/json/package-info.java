@NullMarked
package dev.kcshare.cli.json;

import org.jspecify.annotations.NullMarked;

@NullMarked
package dev.kcshare.cli.records;

import org.jspecify.annotations.NullMarked;

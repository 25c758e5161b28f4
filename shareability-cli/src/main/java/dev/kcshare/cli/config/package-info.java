@NullMarked
package dev.kcshare.cli.config;

import org.jspecify.annotations.NullMarked;

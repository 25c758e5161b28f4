package dev.kcshare.host;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The host files one command (or one call of the embedding facade) has read, so that each is read
 * once and every step of it sees the same content: {@code kcshare assess NAME} needs the Kiro Crew
 * configuration for the host profile and for its gateway settings, and reads it once for both. A
 * step that reads a file after the command wrote it uses a new one. Thread-safe.
 */
public final class FileReads {
  private final ConcurrentHashMap<Object, Object> reads = new ConcurrentHashMap<>();

  /**
   * What {@code read} returned the first time it was asked for {@code key}; it runs once per key.
   *
   * @param key what was read, compared by {@code equals} (an absolute path and how it is read)
   * @param read reads it; it must not return null
   */
  @SuppressWarnings("unchecked") // each key's value is made by the caller that owns that key
  public <T> T once(Object key, Supplier<T> read) {
    Objects.requireNonNull(key, "key");
    return (T) reads.computeIfAbsent(key, k -> Objects.requireNonNull(read.get(), "read"));
  }
}

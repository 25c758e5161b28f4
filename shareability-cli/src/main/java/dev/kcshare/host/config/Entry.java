package dev.kcshare.host.config;

import dev.kcshare.core.json.internal.JsonInputException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One server entry in kcshare's terms ({@code command}, {@code args}, {@code env}, {@code cwd},
 * {@code disabled}, {@code url}, {@code type}, {@code envFile}), mapped from a client's own shape,
 * with the pointer of the member each value came from so a problem names the operator's text.
 */
final class Entry {
  /** The members read from a client's entry under the same names. */
  static final List<String> MEMBERS =
      List.of("command", "args", "env", "cwd", "disabled", "url", "type", "envFile");

  private final String name;
  private final String pointer;
  private final Map<String, @Nullable Object> values = new HashMap<>();
  private final Map<String, String> pointers = new HashMap<>();
  private int argsOffset;

  Entry(String name, String pointer) {
    this.name = name;
    this.pointer = pointer;
  }

  /** An entry whose members already have kcshare's names (Claude, Cursor, Kiro, VS Code...). */
  static Entry standard(String name, String pointer, Map<?, ?> raw) {
    Entry e = new Entry(name, pointer);
    for (String member : MEMBERS) {
      if (raw.containsKey(member)) {
        e.put(member, raw.get(member), JsonInputException.child(pointer, member));
      }
    }
    return e;
  }

  String name() {
    return name;
  }

  String pointer() {
    return pointer;
  }

  /** Sets a member from the value at {@code from}. */
  Entry put(String member, @Nullable Object value, String from) {
    values.put(member, value);
    pointers.put(member, from);
    return this;
  }

  /**
   * Sets {@code args} to the elements of {@code list} from {@code offset} on (opencode's {@code
   * command[1..]}); their pointers keep their index in the operator's array.
   */
  Entry putArgs(List<?> list, int offset, String from) {
    put("args", list.subList(offset, list.size()), from);
    argsOffset = offset;
    return this;
  }

  /** The index in the operator's array of {@code args[0]}. */
  int argsOffset() {
    return argsOffset;
  }

  Entry remove(String member) {
    values.remove(member);
    pointers.remove(member);
    return this;
  }

  @Nullable Object get(String member) {
    return values.get(member);
  }

  boolean has(String member) {
    return values.get(member) != null;
  }

  /** The pointer of the member's value (where it would be when absent). */
  String at(String member) {
    String p = pointers.get(member);
    return p != null ? p : JsonInputException.child(pointer, member);
  }
}

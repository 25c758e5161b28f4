package dev.kcshare.host.config;

import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.text.Secrets;

/** What of a server definition only kcshare's own output and the prober need. */
public final class Definitions {
  private Definitions() {}

  /**
   * What of the definition is secret (its declared env values, secret-looking arguments, URL
   * credentials) and masks it in any text shown or stored (docs/config.md#what-kcshare-masks). The
   * identity hashes are computed from the raw values, never from a masked form.
   */
  public static Secrets secrets(ServerDefinition d) {
    return Secrets.of(d.env(), d.args(), d.url());
  }
}

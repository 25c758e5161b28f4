#!/usr/bin/env python3
"""Reads a verdict cache kcshare wrote, with nothing but Python's json module, and summarises it.

Usage: read_cache.py CACHE_FILE CONFIG_FILE

CONFIG_FILE is the {"mcpServers": {name: {"command", "args", "env"}}} file the cache was measured
from. Run this in the directory kcshare ran in, with the same PATH: the identity depends on both.

Prints one JSON object:
  rows        name -> the row, as read
  names       the row names in file order
  topLevel    the top-level member names in file order
  members     name -> the row's member names in file order
  types       name -> member -> Python type of its value (bool, float, str, ...)
  applied     the applied markers
  identities  name -> the execution identity computed here (docs/design.md#cache-identity) from the row's
              definition in CONFIG_FILE; null when the config has no such server
  roundTrip   json.dumps(doc, indent=2, ensure_ascii=True) + "\n" == text
  gatewayRows name -> the row as the gateway's loader keeps it (docs/design.md#read-tolerance): its own members
              only, or null when it would drop the row. kcshare's optional members (era,
              handshake, cost) are unknown to it and ignored, so they change nothing here.
  costTypes   name -> cost member -> Python type of its value, for rows with a cost
"""

import json
import math
import sys

from identity import cache_identity


GATEWAY_MEMBERS = ["ran", "callerSensitive", "reasons", "evaluatedAt", "identity",
                   "reportedVersion"]


def gateway_row(row):
    """The row as the gateway's tolerant loader reads it, or None when it drops it."""
    if not isinstance(row, dict):
        return None
    identity = row.get("identity")
    if not isinstance(identity, str) or "\0" not in identity or identity.split("\0")[-1] != "2":
        return None
    if not isinstance(row.get("ran"), bool):
        return None
    evaluated = row.get("evaluatedAt")
    finite = isinstance(evaluated, (int, float)) and not isinstance(evaluated, bool) \
        and math.isfinite(evaluated)
    version = row.get("reportedVersion")
    reasons = row.get("reasons")
    return {
        "ran": row["ran"],
        "callerSensitive": row.get("callerSensitive") is True,
        "reasons": [r for r in reasons if isinstance(r, str)] if isinstance(reasons, list) else [],
        "evaluatedAt": float(evaluated) if finite else 0.0,
        "identity": identity,
        "reportedVersion": version if isinstance(version, str) else "",
    }


def main():
    cache_file, config_file = sys.argv[1], sys.argv[2]
    with open(cache_file, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8")  # strict: a BOM or invalid UTF-8 would fail the gateway too
    doc = json.loads(text)
    with open(config_file, encoding="utf-8") as f:
        servers = json.load(f)["mcpServers"]

    entries = doc["entries"]
    identities = {}
    for name in entries:
        definition = servers.get(name)
        if definition is None:
            identities[name] = None
            continue
        env = definition.get("env")
        identities[name] = cache_identity(
            definition["command"], definition.get("args", []), env if isinstance(env, dict) else {})

    json.dump({
        "rows": entries,
        "names": list(entries),
        "topLevel": list(doc),
        "members": {name: list(row) for name, row in entries.items()},
        "types": {name: {k: type(v).__name__ for k, v in row.items()}
                  for name, row in entries.items()},
        "applied": doc["applied"],
        "identities": identities,
        "roundTrip": json.dumps(doc, indent=2, ensure_ascii=True) + "\n" == text,
        "gatewayRows": {name: gateway_row(row) for name, row in entries.items()},
        "costTypes": {name: {k: type(v).__name__ for k, v in row["cost"].items()}
                      for name, row in entries.items() if isinstance(row.get("cost"), dict)},
    }, sys.stdout, allow_nan=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

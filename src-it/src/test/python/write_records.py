#!/usr/bin/env python3
"""Writes both kcshare record files the way the Kiro Crew gateway (Python) would.

Usage: write_records.py RECORDS_DIR SCRIPT

Standard library only. The documents are built from the documented formats (docs/formats.md#the-hazard-ledger--observed-hazardsjson, docs/formats.md#the-verdict-cache--shareability-verdictsjson, docs/design.md#execution-identity) with the
shapes the gateway's writers produce: json.dump with indent=2 and the default allow_nan=True, so a
non-finite lastSeen comes out as the bare token NaN, exactly as the gateway can emit it.

SCRIPT is an existing executable file; its execution identity is computed per docs/design.md#execution-identity
(identity.py) and printed on stdout as JSON, so the caller can compare it byte for byte with
kcshare's.
"""

import json
import os
import shutil
import sys

from identity import SCHEMA, binary_version, command_args_hash, env_hash, fp


def main():
    records, script = sys.argv[1], sys.argv[2]
    os.makedirs(records, exist_ok=True)

    args = ["--port", "8080", os.path.basename(script), "missing.txt"]
    env = {"REGION": "eu-west-1", "MODE": "fast", "AWS_SESSION_TOKEN": "abc", "OAUTH_CLIENT": "k1"}
    keys = ["OAUTH_CLIENT"]
    cah = command_args_hash(script, args)
    cache_identity = "\0".join([cah, env_hash(env), binary_version(script, args), str(SCHEMA)])
    launch = shutil.which(script) or script
    launch_identity = "\0".join(
        [command_args_hash(os.path.abspath(launch), args), env_hash(env, keys), fp(script)])

    old = "h1\0e1\0fp-old"
    ledger = {
        "schema": 1,
        "servers": {
            "files-mcp": {
                "identities": {
                    old: {"codes": ["unroutable_server_request"], "count": 4,
                          "lastSeen": 1712000000.5},
                    launch_identity: {"codes": ["unattributable_notification"], "count": 1,
                                      "lastSeen": float("nan")},
                },
                "codes": ["unattributable_notification", "unroutable_server_request"],
                "count": 5,
                "lastSeen": 1712000000.5,
            },
            # An older writer's flat-only entry.
            "legacy-mcp": {"codes": ["unroutable_server_request"], "count": 2, "lastSeen": 1700.0},
            # A code this build does not know, a fractional count, a tiny time.
            "future-mcp": {
                "identities": {
                    "": {"codes": ["brand_new_code", "unattributable_notification"],
                         "count": 2.5, "lastSeen": 1.5e-05},
                },
                "codes": ["brand_new_code", "unattributable_notification"],
                "count": 2,
                "lastSeen": 1.5e-05,
            },
            # identities is authoritative even when empty: the flat fields are ignored.
            "emptied-mcp": {"identities": {}, "codes": ["unroutable_server_request"],
                            "count": 1, "lastSeen": 5.0},
            "big-mcp": {
                "identities": {
                    "\u00e9\U0001f600": {"codes": ["unroutable_server_request"],
                                          "count": 9007199254740993, "lastSeen": 1712000000.123456},
                },
                "codes": ["unroutable_server_request"],
                "count": 9007199254740993,
                "lastSeen": 1712000000.123456,
            },
        },
    }
    cache = {
        "schema": 99,  # stray: the cache has no top-level version
        "entries": {
            "plain": {"ran": True, "callerSensitive": False, "reasons": [],
                      "evaluatedAt": 1712000100.25, "identity": cache_identity,
                      "reportedVersion": "1.2.3"},
            "sensitive": {"ran": True, "callerSensitive": True,
                          "reasons": ["handshake_not_reproducible"],
                          "evaluatedAt": float("nan"), "identity": cache_identity,
                          "reportedVersion": ""},
            "old-schema": {"ran": True, "callerSensitive": False, "reasons": [],
                           "evaluatedAt": 1.0, "identity": cah + "\0e\0fp\0" + "1",
                           "reportedVersion": ""},
            "no-identity": {"ran": True, "callerSensitive": False, "reasons": [],
                            "evaluatedAt": 1.0, "reportedVersion": ""},
        },
        "applied": ["plain", "removed-server"],
    }
    with open(os.path.join(records, "observed-hazards.json"), "w", encoding="utf-8") as f:
        json.dump(ledger, f, indent=2)
    with open(os.path.join(records, "shareability-verdicts.json"), "w", encoding="utf-8") as f:
        json.dump(cache, f, indent=2)

    json.dump({
        "commandArgsHash": cah,
        "envHash": env_hash(env),
        "binaryVersion": binary_version(script, args),
        "cacheIdentity": cache_identity,
        "launchIdentity": launch_identity,
        "args": args,
        "env": env,
        "identityKeys": keys,
    }, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

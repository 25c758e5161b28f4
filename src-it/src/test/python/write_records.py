#!/usr/bin/env python3
"""Writes both kcshare record files the way the Kiro Crew gateway (Python) would.

Usage: write_records.py RECORDS_DIR SCRIPT

Standard library only. The documents are built from the spec (records.md §4, §5, §7) with the
shapes the gateway's writers produce: json.dump with indent=2 and the default allow_nan=True, so a
non-finite lastSeen comes out as the bare token NaN, exactly as the gateway can emit it.

SCRIPT is an existing executable file; its execution identity is computed here per records.md §7
and printed on stdout as JSON, so the caller can compare it byte for byte with kcshare's.
"""

import hashlib
import json
import os
import shutil
import sys

SECRET_PREFIXES = ("AWS_SECRET", "AWS_SESSION", "OAUTH")
SCHEMA = 2
LARGE = 4 * 1024 * 1024


def command_args_hash(command, args):
    h = hashlib.sha256()
    h.update(command.encode("utf-8") + b"\0")
    for a in args:
        h.update(a.encode("utf-8") + b"\0")
    return h.hexdigest()


def env_hash(env, identity_keys=()):
    kept = {k: v for k, v in env.items()
            if not k.startswith(SECRET_PREFIXES) or k in identity_keys}
    h = hashlib.sha256()
    for k in sorted(kept):  # Python sorts str by code point
        h.update(k.encode("utf-8") + b"=" + str(kept[k]).encode("utf-8") + b"\0")
    return h.hexdigest()


def fp(s):
    try:
        found = shutil.which(s)
        path = os.path.realpath(found if found else s)
        if not os.path.isfile(path):
            return "unknown"
        st = os.stat(path)
        if st.st_size > LARGE:
            return "sz%d-mt%d" % (st.st_size, int(st.st_mtime))
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()[:24]
    except OSError:
        return "unknown"


def binary_version(command, args):
    parts = [fp(command)]
    for a in args:
        if a and not a.startswith("-"):
            try:
                if os.path.isfile(a):
                    parts.append(fp(a))
            except OSError:
                pass
    return "\0".join(parts)


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

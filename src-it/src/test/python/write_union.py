#!/usr/bin/env python3
"""Writes a ledger whose flat union needs exact integers, the way the Kiro Crew gateway would.

Usage: write_union.py RECORDS_DIR

Two identities of "big" at the largest count a reader accepts per identity (2**63 - 1): the
gateway's flat count is their exact sum (Python integers are unbounded). "early" was last seen
before the epoch (-1.5): the flat lastSeen is the maximum as it is. Standard library only.
"""

import json
import os
import sys


def main():
    records = sys.argv[1]
    os.makedirs(records, exist_ok=True)
    top = 2**63 - 1
    big = {
        "a": {"codes": ["unroutable_server_request"], "count": top, "lastSeen": 7.0},
        "b": {"codes": ["unroutable_server_request"], "count": top, "lastSeen": 8.0},
    }
    early = {"a": {"codes": ["unattributable_notification"], "count": 1, "lastSeen": -1.5}}

    def entry(identities):
        return {
            "identities": identities,
            "codes": sorted({c for r in identities.values() for c in r["codes"]}),
            "count": sum(r["count"] for r in identities.values()),
            "lastSeen": max(r["lastSeen"] for r in identities.values()),
        }

    ledger = {"schema": 1, "servers": {"big": entry(big), "early": entry(early)}}
    with open(os.path.join(records, "observed-hazards.json"), "w", encoding="utf-8") as f:
        json.dump(ledger, f, indent=2)


if __name__ == "__main__":
    main()

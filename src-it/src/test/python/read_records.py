#!/usr/bin/env python3
"""Reads a ledger kcshare wrote, with nothing but Python's json module, and summarises it.

Usage: read_records.py LEDGER_FILE

Prints one JSON object:
  servers      name -> {"codes", "count", "lastSeen", "identities": {identity -> record}}, as read
  cleared      the cleared markers
  schema       the schema member
  roundTrip    json.dumps(json.loads(text), indent=2) + "\n" == text (member order preserved)
  sortedAgrees for each level of the document, whether dumping it with sort_keys=True gives the
               same text as dumping it in file order: the levels where kcshare's member order is
               sorted order
  namesSorted  whether server names and identity keys appear in sorted (code point) order
"""

import json
import sys


def dumps(value, sort_keys):
    return json.dumps(value, indent=2, sort_keys=sort_keys, ensure_ascii=True)


def main():
    with open(sys.argv[1], "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8")  # strict: a BOM or invalid UTF-8 would fail the gateway too
    doc = json.loads(text)

    servers = doc["servers"]
    summary_servers = {}
    identity_records_sorted = True
    server_entries_sorted = True
    names_sorted = list(servers) == sorted(servers)
    for name, entry in servers.items():
        identities = entry["identities"]
        names_sorted = names_sorted and list(identities) == sorted(identities)
        for record in identities.values():
            identity_records_sorted = identity_records_sorted and (
                dumps(record, True) == dumps(record, False))
        server_entries_sorted = server_entries_sorted and (
            dumps(entry, True) == dumps(entry, False))
        summary_servers[name] = {
            "codes": entry["codes"],
            "count": entry["count"],
            "lastSeen": entry["lastSeen"],
            "identities": identities,
        }

    json.dump({
        "schema": doc["schema"],
        "servers": summary_servers,
        "cleared": doc.get("cleared", {}),
        "roundTrip": dumps(doc, False) + "\n" == text,
        "sortedAgrees": {
            "identityRecords": identity_records_sorted,
            "serverEntries": server_entries_sorted,
            "topLevel": dumps(doc, True) == dumps(doc, False),
        },
        "namesSorted": names_sorted,
    }, sys.stdout, allow_nan=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

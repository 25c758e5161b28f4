#!/usr/bin/env python3
"""Canonical JSON for comparisons: reads JSON on stdin, descends into the given member names
(array indexes as decimal numbers), and prints the value compact, keys sorted, ASCII only.

Usage: canon.py [KEY ...] < value.json
"""

import json
import sys


def main():
    value = json.loads(sys.stdin.read())
    for key in sys.argv[1:]:
        value = value[int(key)] if isinstance(value, list) else value[key]
    sys.stdout.write(json.dumps(value, sort_keys=True, ensure_ascii=True,
                                separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Where a kcshare run's time goes: stages bounded by the loading of marker classes.

Usage: phases.py [--rounds N] [--cache DIR] -- KCSHARE_ARGS...

Runs the packaged launcher N times (default 11) with its usual JVM flags plus
-Xlog:class+load (uptime-stamped, to a file). Each stage runs from the median uptime at which its
marker class loads to the next one's; a marker that does not load in every run is left out (its
time goes to the stage before). The class-load log itself costs a few milliseconds.

The markers follow one command through its stages: JVM start, picocli's command model, the
command itself (config load, identities, records, verdicts, output), exit.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = REPO / "shareability-cli/target/kcshare"
FLAGS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss4m"

# (class whose loading marks the start of a stage, the stage it starts)
MARKERS = [
    ("dev.kcshare.cli.Main", "picocli: build the command model"),
    ("picocli.CommandLine$ParseResult$Builder", "picocli: parse the command line"),
    ("dev.kcshare.cli.log.Verbosity", "the command (up to any config load)"),
    ("dev.kcshare.host.config.HostConfigLoader", "config: read, parse, entries"),
    ("dev.kcshare.host.records.ServerIdentity", "config: execution identities"),
    ("dev.kcshare.host.records.RecordFile", "records: read, parse, decode"),
    ("dev.kcshare.core.policy.EvidenceAssembly", "verdicts"),
    ("dev.kcshare.cli.Output", "output"),
    ("java.lang.Shutdown", "exit"),
]


def run_once(args, cache, log):
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = str(cache)
    env["KCSHARE_JAVA_OPTS"] = f"{FLAGS} -Xlog:class+load=info:file={log}:uptime"
    subprocess.run([str(LAUNCHER), *args], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen = {}
    for line in Path(log).read_text().splitlines():
        # [0.123s] some.Class source: ...
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith("[") and parts[0].endswith("s]"):
            seen.setdefault(parts[1], float(parts[0][1:-2]) * 1000)
    return seen


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rounds", type=int, default=11)
    p.add_argument("--cache", help="XDG_CACHE_HOME for the launcher (default: a temporary one)")
    p.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args()
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(a.cache) if a.cache else Path(tmp) / "cache"
        log = Path(tmp) / "classes.log"
        run_once(["--version"], cache, log)  # creates the AppCDS archive, untimed
        samples = [run_once(args, cache, log) for _ in range(a.rounds)]
    print(f"kcshare {' '.join(args)}: median ms over {a.rounds} runs, per stage")
    stages = []
    for cls, stage in MARKERS:
        times = [r[cls] for r in samples if cls in r]
        if len(times) == len(samples):
            stages.append((statistics.median(times), stage))
    previous, label = 0.0, "JVM start, up to Main"
    for at, stage in stages:
        print(f"  {at - previous:5.0f}  {label}")
        previous, label = at, stage
    print(f"  {previous:5.0f}  total, up to exit (uptime when Shutdown loads)")

if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Where a kcshare run's time goes: stages bounded by the loading of marker classes.

Usage: phases.py [--rounds N] [--cache DIR] [--launcher PATH] -- KCSHARE_ARGS...

Runs the packaged launcher N times (default 11) with its usual JVM flags plus
-Xlog:class+load and -Xlog:gc+heap+exit (uptime-stamped, to a file). Each stage runs from the
median uptime at which its marker class loads to the next one's, in the order of those medians; a
marker that does not load in every run is left out (its time goes to the stage before). The last
stage ends when the JVM exits (the heap summary it logs then, after every shutdown hook ran). The
class-load log itself costs a few milliseconds. Also printed: the median wall time of the whole
process, launcher script included.

The markers follow one command through its stages: JVM start, picocli's command model, the
command itself (config load, identities, records, verdicts, output), exit. A pre-flight (`measure
SERVER`) adds its own: the prober set-up, the lock and the records read, the first spawn, the
first message from a server, the first identity's answer complete, the first teardown done, both
identities done (comparison, the verdict cache flush), the pass's result. A plain `measure
SERVER` begins its pre-flight before picocli builds its model, on another thread: the stages are
then a timeline of marker events, and work of different threads overlaps in it.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = REPO / "shareability-cli/target/kcshare"
FLAGS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss4m"

# (class whose loading marks the start of a stage, the stage it starts)
MARKERS = [
    ("dev.kcshare.cli.Main", "Main, up to the next stage"),
    ("dev.kcshare.cli.KcshareCommand", "picocli: build the command model"),
    ("picocli.CommandLine$ParseResult$Builder", "picocli: parse the command line"),
    ("dev.kcshare.cli.log.Verbosity", "the command (up to its next stage)"),
    ("dev.kcshare.host.config.HostConfigLoader", "config: read, parse, entries"),
    ("dev.kcshare.host.records.ServerIdentity", "config: execution identities"),
    ("dev.kcshare.host.records.RecordFile", "records: read, parse, decode"),
    ("dev.kcshare.core.policy.EvidenceAssembly", "verdicts"),
    ("dev.kcshare.cli.Output", "output"),
    # a pre-flight (measure, preflight)
    ("dev.kcshare.host.prober.StdioProber", "prober set-up (up to the records)"),
    ("dev.kcshare.host.records.CacheStore", "records: lock, read the cache and attempts"),
    ("java.lang.ProcessImpl", "first spawn, up to a server's first message"),
    ("dev.kcshare.host.prober.MessageReader$Line", "servers answer, up to one complete answer"),
    ("dev.kcshare.host.prober.Exchange$Answered", "sample, close stdin, up to one server's exit"),
    ("dev.kcshare.core.text.ExitStatus", "the other identity, both torn down"),
    ("dev.kcshare.core.handshake.HandshakeComparison", "compare, store, flush the records"),
    ("dev.kcshare.api.PassResult", "output"),
]


def run_once(args, cache, log, launcher=LAUNCHER):
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = str(cache)
    env["KCSHARE_JAVA_OPTS"] = (
        f"{FLAGS} -Xlog:class+load=info,gc+heap+exit=info:file={log}:uptime,tags")
    start = time.perf_counter()
    subprocess.run([str(launcher), *args], env=env, check=True, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = (time.perf_counter() - start) * 1000
    seen = {WALL: wall}
    for line in Path(log).read_text().splitlines():
        # [0.123s][class,load] some.Class source: ...   or   [0.456s][gc,heap,exit] Heap
        parts = line.replace("][", "] [", 1).split()
        if len(parts) >= 3 and parts[0].startswith("[") and parts[0].endswith("s]"):
            at = float(parts[0][1:-2]) * 1000
            if parts[1] == "[class,load]":
                seen.setdefault(parts[2], at)
            elif parts[1] == "[gc,heap,exit]":
                seen.setdefault(EXIT, at)
    return seen


WALL = "(wall time)"
EXIT = "(JVM exit)"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rounds", type=int, default=11)
    p.add_argument("--cache", help="XDG_CACHE_HOME for the launcher (default: a temporary one)")
    p.add_argument("--launcher", default=str(LAUNCHER), help="the launcher (default: the build's)")
    p.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args()
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    if args[:1] == ["measure"] and not any(x.startswith("--records-dir") for x in args):
        # Without it every run writes into the host's real records directory, which the gateway
        # shares (~/.kiro/crew/mcp-gateway by default).
        sys.exit("phases.py: give measure a --records-dir DIR of its own: otherwise each run "
                 "writes into this host's real records directory")
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(a.cache) if a.cache else Path(tmp) / "cache"
        log = Path(tmp) / "classes.log"
        run_once(["--version"], cache, log, a.launcher)  # creates the AppCDS archive, untimed
        samples = [run_once(args, cache, log, a.launcher) for _ in range(a.rounds)]
    print(f"kcshare {' '.join(args)}: median ms over {a.rounds} runs, per stage")
    stages = []
    for cls, stage in MARKERS + [(EXIT, None)]:
        times = [r[cls] for r in samples if cls in r]
        if len(times) == len(samples):
            stages.append((statistics.median(times), stage))
    stages.sort(key=lambda s: s[0])
    previous, label = 0.0, "JVM start, up to Main"
    for at, stage in stages:
        if stage is None:  # the JVM's exit ends the last stage
            break
        print(f"  {at - previous:5.0f}  {label}")
        previous, label = at, stage
    end = statistics.median(r[EXIT] for r in samples) if all(EXIT in r for r in samples) else previous
    print(f"  {end - previous:5.0f}  {label}, up to the JVM's exit")
    print(f"  {end:5.0f}  total, up to the JVM's exit (uptime)")
    print(f"  {statistics.median(r[WALL] for r in samples):5.0f}  wall time of the whole process"
          " (launcher script, JVM start and exit included)")

if __name__ == "__main__":
    sys.exit(main())

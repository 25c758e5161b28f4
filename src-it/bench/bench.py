#!/usr/bin/env python3
"""kcshare's end-to-end benchmarks: wall time of whole processes, as a user would see it.

Run through run-benchmarks.sh, which installs the real servers first. Every ratio is taken in ONE
run from interleaved rounds (contender order alternates every round), so slow drift of a noisy
machine hits both sides alike. Outputs of every timed process are discarded; each timed kcshare
measurement gets a fresh records directory, so it really spawns and measures.

  a  one server: `kcshare measure SERVER` vs one `tools/list` listing by the MCP Inspector CLI,
     for server-everything (target ratio <= 1.0) and server-memory (<= 1.2)
  b  fleet of 12 (the 4 npm servers + 8 fixtures with --delay-ms 300): `measure --all` (default
     --jobs) vs `measure --all --jobs 1` (target <= 0.6)
  c  `assess --all` over 200 configured servers with a verdict cache and a hazard ledger present
     vs `kcshare --version` (target <= 1.5), and `kcshare --version` alone (median <= 250 ms)
  d  session-cost sampling: `measure --all` of the fleet of b with the pre-flight's /proc sampling
     on (as shipped) vs off (-Dkcshare.footprint=off, a switch for this benchmark only); target
     ratio <= 1.05 in wall time; the same runs' CPU time (kcshare and its servers) is reported too
  e  the same `assess --all` with a 200,000-row verdict cache (the 200 real rows plus 199,800
     rows of other servers, about 170 MB) under -Xmx256m (median <= 3 s), with its peak RSS
  f  the physical floor: `kcshare measure SERVER` vs floor.mjs, a bare Node.js client that spawns the
     server once, does one initialize + tools/list, closes stdin and waits for the exit (no SDK),
     for server-memory and server-everything (target ratio <= 1.25 each); CPU time reported too.
     The same client doing two identities at once (floor.mjs --identities 2) is timed in the same
     rounds: what a pre-flight's two concurrent servers cost with no JVM, comparison or write

All kcshare runs use the packaged launcher with an AppCDS archive in a private cache directory,
created by an untimed warm-up run before any timing.
"""

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NPM_SERVERS = ["everything", "memory", "filesystem", "sequential-thinking"]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rounds", type=int, default=11, help="rounds for a and c (default 11)")
    p.add_argument("--fleet-rounds", type=int, default=7, help="rounds for b (default 7)")
    p.add_argument("--sampling-rounds", type=int, default=15, help="rounds for d (default 15)")
    p.add_argument("--floor-rounds", type=int, default=21, help="rounds for f (default 21)")
    p.add_argument("--only", default="abcdef", help="which benchmarks to run, e.g. 'a' or 'be'")
    p.add_argument("--launcher", default=str(REPO / "shareability-cli/target/kcshare"))
    p.add_argument("--baseline-launcher",
                   help="b, c, f: also time this (older) build's launcher in the same rounds")
    p.add_argument("--servers", default=os.environ.get("KCSHARE_IT_SERVERS", str(REPO / ".it-servers")))
    p.add_argument("--work", help="work directory (default: a fresh temporary one, removed after)")
    p.add_argument("--json-out", help="also write every sample and summary to this JSON file")
    return p.parse_args()


class Bench:
    def __init__(self, args):
        self.launcher = Path(args.launcher).resolve()
        self.baseline = Path(args.baseline_launcher).resolve() if args.baseline_launcher else None
        self.servers = Path(args.servers).resolve()
        self.bin = self.servers / "node_modules/.bin"
        self.fixture = REPO / "src-it/fixtures/mcp-fixture.mjs"
        self.work = Path(args.work or tempfile.mkdtemp(prefix="kcshare-bench-")).resolve()
        self.keep_work = args.work is not None
        self.work.mkdir(parents=True, exist_ok=True)
        self.counter = 0
        self.env = dict(os.environ)
        self.env["XDG_CACHE_HOME"] = str(self.work / "cache")
        self.env["KCSHARE_CDS"] = "1"
        self.env.pop("KCSHARE_JAVA_OPTS", None)
        self.env.pop("KCSHARE_LOG_LEVEL", None)
        # The Inspector keeps a writable catalog, by default under ~/.mcp-inspector.
        self.env["MCP_CATALOG_PATH"] = str(self.work / "inspector-catalog.json")
        self.results = []

    # ------------------------------------------------------------------ running processes

    def fresh(self, what):
        self.counter += 1
        return self.work / f"{what}-{self.counter}"

    def run(self, argv, check=True, env=None):
        """Runs argv with outputs discarded; returns the wall time in seconds."""
        env = env or self.env
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=env, cwd=self.work)
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # CPU of the whole tree the run waited for (kcshare's JVM and the servers it reaped).
        self.last_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if check and proc.returncode != 0:
            # Re-run with output shown, so the failure explains itself.
            out = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                 env=env, cwd=self.work)
            sys.exit(f"bench: exit {proc.returncode}: {' '.join(map(str, argv))}\n"
                     f"{out.stdout[-2000:]}{out.stderr[-2000:]}")
        return elapsed

    def output(self, argv):
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              env=self.env, cwd=self.work)
        if proc.returncode != 0:
            sys.exit(f"bench: exit {proc.returncode}: {' '.join(map(str, argv))}\n{proc.stderr[-2000:]}")
        return proc.stdout

    def kcshare(self, *args, launcher=None):
        return [str(launcher or self.launcher), *map(str, args)]

    def rows(self, records):
        path = records / "shareability-verdicts.json"
        return json.loads(path.read_text())["entries"] if path.exists() else {}

    def interleave(self, rounds, contenders):
        """contenders: [(label, fn() -> seconds)]. Alternates the order every round."""
        samples = {label: [] for label, _ in contenders}
        for i in range(rounds):
            order = contenders if i % 2 == 0 else list(reversed(contenders))
            for label, fn in order:
                samples[label].append(fn())
            print(f"  round {i + 1}/{rounds}: "
                  + ", ".join(f"{label} {samples[label][-1] * 1000:.0f} ms" for label, _ in contenders),
                  file=sys.stderr, flush=True)
        return samples

    # ------------------------------------------------------------------ configs

    def npm_definition(self, name):
        d = {"command": str(self.bin / f"mcp-server-{name}")}
        if name == "filesystem":
            allowed = self.work / "allowed"
            allowed.mkdir(exist_ok=True)
            d["args"] = [str(allowed)]
        if name == "memory":
            d["env"] = {"MEMORY_FILE_PATH": str(self.work / "memory.jsonl")}
        return d

    def fixture_definition(self, mode, *flags):
        return {"command": "node", "args": [str(self.fixture), mode, *flags]}

    def write_config(self, name, servers):
        path = self.work / name
        path.write_text(json.dumps({"mcpServers": servers}, indent=2))
        return path

    # ------------------------------------------------------------------ warm-up

    def warm_up(self):
        """Has the launcher create its AppCDS archive (from the shipped class list), untimed."""
        config = self.write_config("warm.json", {"warm": self.fixture_definition("stable")})
        self.run(self.kcshare("measure", "warm", "--config", config, "--records-dir", self.fresh("rec")))
        archives = list((self.work / "cache/kcshare").glob("*.jsa"))
        if not archives:
            sys.exit("bench: the launcher created no AppCDS archive")
        self.run(self.kcshare("--version"))  # first use of the archive, untimed
        if self.baseline:
            self.run(self.kcshare("measure", "warm", "--config", config, "--records-dir", self.fresh("rec"),
                                  launcher=self.baseline))
            self.run(self.kcshare("--version", launcher=self.baseline))

    # ------------------------------------------------------------------ a: one server

    def bench_one_server(self, rounds):
        for name, target in [("everything", 1.0), ("memory", 1.2)]:
            print(f"a. one server: {name}", file=sys.stderr)
            config = self.write_config(f"one-{name}.json", {name: self.npm_definition(name)})
            inspector = [str(self.bin / "inspector"), "--cli"]
            for k, v in self.npm_definition(name).get("env", {}).items():
                inspector += ["-e", f"{k}={v}"]
            inspector += [self.npm_definition(name)["command"], *self.npm_definition(name).get("args", [])]
            inspector += ["--method", "tools/list"]
            listing = json.loads(self.output(inspector))
            if not listing.get("tools"):
                sys.exit(f"bench: the Inspector listed no tools for {name}")

            def measure():
                records = self.fresh("rec")
                t = self.run(self.kcshare("measure", name, "--config", config, "--records-dir", records))
                row = self.rows(records).get(name)
                if not row or not row.get("ran"):
                    sys.exit(f"bench: kcshare stored no measured row for {name}")
                return t

            samples = self.interleave(rounds, [
                ("kcshare measure", measure),
                ("inspector tools/list", lambda: self.run(inspector)),
            ])
            self.record(f"a. {name}", samples, "kcshare measure", "inspector tools/list", target)

    # ------------------------------------------------------------------ f: the physical floor

    def bench_floor(self, rounds):
        floor_script = REPO / "src-it/bench/floor.mjs"
        for name in ["memory", "everything"]:
            print(f"f. one server vs the floor: {name}", file=sys.stderr)
            definition = self.npm_definition(name)
            config = self.write_config(f"floor-{name}.json", {name: definition})
            floor = ["node", str(floor_script)]
            for k, v in definition.get("env", {}).items():
                floor += ["--env", f"{k}={v}"]
            server = [definition["command"], *definition.get("args", [])]
            # The same bare client doing what a pre-flight does: two identities at once.
            floor_twice = floor + ["--identities", "2"] + server
            floor += server
            for argv in (floor, floor_twice):
                if int(self.output(argv).strip() or 0) < 1:
                    sys.exit(f"bench: the floor client listed no tools for {name}")
            cpu = {}

            def measure(label, launcher=None):
                cpu[label] = []

                def fn():
                    records = self.fresh("rec")
                    t = self.run(self.kcshare("measure", name, "--config", config, "--records-dir", records,
                                              launcher=launcher))
                    cpu[label].append(self.last_cpu)
                    row = self.rows(records).get(name)
                    if not row or not row.get("ran"):
                        sys.exit(f"bench: kcshare stored no measured row for {name}")
                    return t
                return fn

            def bare(label, argv):
                cpu[label] = []

                def fn():
                    t = self.run(argv)
                    cpu[label].append(self.last_cpu)
                    return t
                return fn

            contenders = [("kcshare measure", measure("kcshare measure"))]
            if self.baseline:
                contenders.append(("baseline build measure", measure("baseline build measure", self.baseline)))
            kcshare = [label for label, _ in contenders]
            contenders.append(("floor, two identities", bare("floor, two identities", floor_twice)))
            contenders.append(("floor", bare("floor", floor)))
            samples = self.interleave(rounds, contenders)
            for label in kcshare:
                tag = "" if label == "kcshare measure" else " (baseline build)"
                self.record(f"f. {name}{tag}", samples, label, "floor", 1.25)
                self.results[-1]["targetOnPaired"] = True
            # What two concurrent identities cost by themselves, and kcshare against that.
            self.record(f"f. {name} x2", samples, "floor, two identities", "floor", None)
            for label in kcshare:
                tag = "" if label == "kcshare measure" else " (baseline build)"
                self.record(f"f. {name}{tag} vs x2", samples, label, "floor, two identities", None)
            for label in kcshare + ["floor, two identities"]:
                tag = {"kcshare measure": "", "floor, two identities": " x2"}.get(label, " (baseline build)")
                self.record(f"f. {name}{tag} CPU", {f"{label} CPU": cpu[label], "floor CPU": cpu["floor"]},
                            f"{label} CPU", "floor CPU", None)

    # ------------------------------------------------------------------ b: fleet

    def bench_fleet(self, rounds):
        print("b. fleet of 12", file=sys.stderr)
        servers = self.fleet_servers()
        config = self.write_config("fleet.json", servers)

        def measure_all(*extra, launcher=None):
            def fn():
                records = self.fresh("rec")
                t = self.run(self.kcshare("measure", "--all", *extra, "--config", config,
                                          "--records-dir", records, launcher=launcher))
                rows = self.rows(records)
                if sorted(rows) != sorted(servers) or not all(r["ran"] for r in rows.values()):
                    sys.exit(f"bench: fleet pass stored {sorted(rows)}")
                return t
            return fn

        contenders = [
            ("measure --all", measure_all()),
            ("measure --all --jobs 1", measure_all("--jobs", "1")),
        ]
        if self.baseline:
            contenders.append(("baseline build --all", measure_all(launcher=self.baseline)))
        samples = self.interleave(rounds, contenders)
        self.record("b. fleet (12)", samples, "measure --all", "measure --all --jobs 1", 0.6)
        if self.baseline:
            self.record("b. vs baseline", samples, "measure --all", "baseline build --all", None)

    # ------------------------------------------------------------------ d: sampling overhead

    def fleet_servers(self):
        servers = {name: self.npm_definition(name) for name in NPM_SERVERS}
        for i in range(8):
            servers[f"fixture-{i}"] = self.fixture_definition(
                "stable", "--delay-ms", "300", "--name", f"fixture-{i}")
        return servers

    def bench_sampling(self, rounds):
        print("d. session-cost sampling on vs off (fleet of 12)", file=sys.stderr)
        servers = self.fleet_servers()
        config = self.write_config("fleet-sampling.json", servers)
        # The launcher's own default flags in both, so only the switch differs.
        flags = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss4m"
        on = dict(self.env, KCSHARE_JAVA_OPTS=flags)
        off = dict(self.env, KCSHARE_JAVA_OPTS=flags + " -Dkcshare.footprint=off")

        cpu = {"sampling on": [], "sampling off": []}

        def measure_all(env, sampled):
            label = "sampling on" if sampled else "sampling off"

            def fn():
                records = self.fresh("rec")
                t = self.run(self.kcshare("measure", "--all", "--config", config,
                                          "--records-dir", records), env=env)
                rows = self.rows(records)
                if sorted(rows) != sorted(servers) or not all(r["ran"] for r in rows.values()):
                    sys.exit(f"bench: fleet pass stored {sorted(rows)}")
                with_cost = [n for n, r in rows.items() if "cost" in r]
                if sampled and len(with_cost) != len(servers):
                    sys.exit(f"bench: sampling on, but only {sorted(with_cost)} have a cost")
                if not sampled and with_cost:
                    sys.exit(f"bench: sampling off, but {sorted(with_cost)} have a cost")
                cpu[label].append(self.last_cpu)
                return t
            return fn

        samples = self.interleave(rounds, [
            ("sampling on", measure_all(on, True)),
            ("sampling off", measure_all(off, False)),
        ])
        self.record("d. sampling (12)", samples, "sampling on", "sampling off", 1.05)
        # The same runs' CPU time (user + system of kcshare and every server it started): far less
        # sensitive to a busy machine than wall time, it shows the work sampling adds.
        self.record("d. CPU time (12)", {"CPU on": cpu["sampling on"], "CPU off": cpu["sampling off"]},
                    "CPU on", "CPU off", 1.05)

    # ------------------------------------------------------------------ c: assess 200

    def fleet200(self):
        """The 200-server config and its records (one real pass, untimed), made once."""
        if getattr(self, "_fleet200", None):
            return self._fleet200
        servers = {}
        for i in range(200):
            flags = ["--name", f"server-{i}"]
            if i % 7 == 0:
                flags += ["--declare", "1"]
            if i % 5 == 0:
                flags += ["--read-only", "1"]
            mode = "sensitive-tools" if i % 25 == 0 else "stable"
            servers[f"server-{i:03d}"] = self.fixture_definition(mode, *flags)
        config = self.write_config("fleet200.json", servers)
        records = self.work / "records-200"
        print("  set-up: measuring the 200 servers once (untimed)", file=sys.stderr, flush=True)
        self.run(self.kcshare("measure", "--all", "--config", config, "--records-dir", records))
        rows = self.rows(records)
        if len(rows) != 200:
            sys.exit(f"bench: the set-up pass stored {len(rows)} rows, not 200")
        self.write_ledger(records / "observed-hazards.json", [n for i, n in enumerate(servers) if i % 10 == 3])
        self._fleet200 = (servers, config, records)
        return self._fleet200

    def bench_assess(self, rounds):
        print("c. assess --all over 200 servers", file=sys.stderr)
        servers, config, records = self.fleet200()

        verdicts = json.loads(self.output(self.kcshare("assess", "--all", "--json", "--config", config,
                                                       "--records-dir", records)))
        tiers = {}
        for v in verdicts:
            tiers[v["strength"]] = tiers.get(v["strength"], 0) + 1
        print(f"  {len(verdicts)} verdicts: {tiers}", file=sys.stderr)
        if len(verdicts) != 200:
            sys.exit("bench: assess did not return 200 verdicts")
        self.assess_tiers = tiers

        assess = self.kcshare("assess", "--all", "--json", "--config", config, "--records-dir", records)
        version = self.kcshare("--version")
        contenders = [
            ("assess --all (200)", lambda: self.run(assess)),
            ("--version", lambda: self.run(version)),
        ]
        if self.baseline:
            old = self.kcshare("assess", "--all", "--json", "--config", config, "--records-dir", records,
                               launcher=self.baseline)
            contenders.append(("baseline build assess", lambda: self.run(old)))
        samples = self.interleave(rounds, contenders)
        self.record("c. assess 200", samples, "assess --all (200)", "--version", 1.5)
        self.record_absolute("c. --version", samples["--version"], 0.250)
        if self.baseline:
            self.record("c. vs baseline", samples, "assess --all (200)", "baseline build assess", None)

    # ------------------------------------------------------------------ d: a 200,000-row cache

    def bench_large_cache(self, rounds):
        print("d. assess --all over 200 servers, 200,000-row cache, -Xmx256m", file=sys.stderr)
        servers, config, records = self.fleet200()
        big = self.work / "records-200k"
        big.mkdir(exist_ok=True)
        shutil.copy(records / "observed-hazards.json", big / "observed-hazards.json")
        cache = json.loads((records / "shareability-verdicts.json").read_text())
        real = cache["entries"]
        names = list(real)
        entries = dict(real)
        for i in range(200, 200_000):
            row = json.loads(json.dumps(real[names[i % len(names)]]))
            parts = row["identity"].split("\0")
            parts[0] = f"{i:064x}"
            row["identity"] = "\0".join(parts)
            entries[f"other-{i:06d}"] = row
        cache["entries"] = dict(sorted(entries.items()))
        (big / "shareability-verdicts.json").write_text(json.dumps(cache, indent=2) + "\n")
        size = (big / "shareability-verdicts.json").stat().st_size
        print(f"  cache: {len(entries)} rows, {size / 1e6:.0f} MB", file=sys.stderr)

        env = dict(self.env)
        env["KCSHARE_JAVA_OPTS"] = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss4m -Xmx256m"
        argv = self.kcshare("assess", "--all", "--json", "--config", config, "--records-dir", big)
        small = self.kcshare("assess", "--all", "--json", "--config", config, "--records-dir", records)
        # The large cache changes no verdict (same rows for the 200 configured servers).
        if json.loads(self.output(small)) != json.loads(self.output_env(argv, env)):
            sys.exit("bench: the 200,000-row cache changed the verdicts")

        del cache, entries, real  # the set-up's copy of the rows is not the benchmark's memory

        def timed():
            start = time.perf_counter()
            proc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, env=env, cwd=self.work)
            elapsed = time.perf_counter() - start
            if proc.returncode != 0:
                sys.exit(f"bench: exit {proc.returncode}: {' '.join(map(str, argv))}")
            return elapsed

        samples = self.interleave(rounds, [("assess, 200k-row cache", timed)])
        # Peak resident memory of the JVM, from its own VmHWM (untimed runs; polling costs a little).
        peaks = [self.peak_rss_kib(argv, env) for _ in range(3)]
        self.record_absolute("d. 200k cache", samples["assess, 200k-row cache"], 3.0)
        self.results[-1]["peakRssKiB"] = self.summary(peaks)
        self.results[-1]["cacheBytes"] = size

    def peak_rss_kib(self, argv, env):
        """Runs argv and polls its VmHWM (the high-water mark of its resident set) until it exits."""
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env=env, cwd=self.work)
        peak = 0
        while proc.poll() is None:
            try:
                for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]))
            except (OSError, ValueError):
                pass
            time.sleep(0.01)
        if proc.returncode != 0:
            sys.exit(f"bench: exit {proc.returncode}: {' '.join(map(str, argv))}")
        return peak

    def output_env(self, argv, env):
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              env=env, cwd=self.work)
        if proc.returncode != 0:
            sys.exit(f"bench: exit {proc.returncode}: {' '.join(map(str, argv))}\n{proc.stderr[-2000:]}")
        return proc.stdout

    @staticmethod
    def write_ledger(path, names):
        """A hazard ledger per docs/formats.md#the-hazard-ledger--observed-hazardsjson with one or two identities for each name."""
        servers = {}
        for n, name in enumerate(sorted(names)):
            identities = {}
            for k in range(1 + n % 2):
                ident = f"{n:064x}\u0000{k:064x}\u0000{'0' * 24}"
                code = "unroutable_server_request" if k == 0 else "unattributable_notification"
                identities[ident] = {"codes": [code], "count": 3 + k, "lastSeen": 1796000000.5 + k}
            servers[name] = {
                "identities": identities,
                "codes": sorted({c for r in identities.values() for c in r["codes"]}),
                "count": sum(r["count"] for r in identities.values()),
                "lastSeen": max(r["lastSeen"] for r in identities.values()),
            }
        path.write_text(json.dumps({"schema": 1, "servers": servers}, indent=2))

    # ------------------------------------------------------------------ statistics

    @staticmethod
    def summary(xs):
        q1, med, q3 = statistics.quantiles(xs, n=4, method="inclusive")
        return {"n": len(xs), "median": statistics.median(xs), "q1": q1, "q3": q3,
                "min": min(xs), "max": max(xs)}

    def record(self, name, samples, subject, baseline, target):
        s, b = self.summary(samples[subject]), self.summary(samples[baseline])
        paired = [x / y for x, y in zip(samples[subject], samples[baseline])]
        self.results.append({
            "benchmark": name, "subject": subject, "baseline": baseline,
            "subjectStats": s, "baselineStats": b,
            "ratio": s["median"] / b["median"], "pairedRatio": self.summary(paired),
            "target": target, "samples": samples,
        })

    def record_absolute(self, name, xs, target_seconds):
        self.results.append({"benchmark": name, "subject": name, "subjectStats": self.summary(xs),
                             "targetSeconds": target_seconds, "samples": {name: xs}})

    def report(self):
        def ms(x):
            return f"{x * 1000:7.0f}"

        lines = []
        lines.append(f"{'benchmark':<16} {'process':<24} {'n':>3} {'median ms':>9} {'IQR ms':>15}")
        verdicts = []
        for r in self.results:
            rows = [(r["subject"], r["subjectStats"])]
            if "baseline" in r:
                rows.append((r["baseline"], r["baselineStats"]))
            for label, st in rows:
                lines.append(f"{r['benchmark']:<16} {label:<24} {st['n']:>3} {ms(st['median']):>9} "
                             f"{ms(st['q1']).strip():>7}-{ms(st['q3']).strip():<7}")
            if "ratio" in r:
                p = r["pairedRatio"]
                line = (f"{r['benchmark']:<16} ratio of medians {r['ratio']:.2f} (paired per-round ratio "
                        f"median {p['median']:.2f}, IQR {p['q1']:.2f}-{p['q3']:.2f})")
                if r["target"] is not None:
                    # f's target is on the paired ratio (the median of per-round ratios).
                    judged = p["median"] if r.get("targetOnPaired") else r["ratio"]
                    ok = judged <= r["target"]
                    on = "paired " if r.get("targetOnPaired") else ""
                    line += f"; target {on}<= {r['target']:.2f}: {'met' if ok else 'MISSED'}"
                verdicts.append(line)
            else:
                ok = r["subjectStats"]["median"] <= r["targetSeconds"]
                rss = r.get("peakRssKiB")
                extra = f"; peak RSS median {rss['median'] / 1024:.0f} MiB" if rss else ""
                verdicts.append(f"{r['benchmark']:<16} median {ms(r['subjectStats']['median']).strip()} ms; "
                                f"target <= {r['targetSeconds'] * 1000:.0f} ms: {'met' if ok else 'MISSED'}{extra}")
        return "\n".join(lines + [""] + verdicts)


def versions(bench):
    def out(argv):
        try:
            return subprocess.run(argv, capture_output=True, text=True, env=bench.env).stdout.strip()
        except OSError:
            return "?"

    pkgs = []
    for name in NPM_SERVERS + ["inspector"]:
        pkg = "inspector" if name == "inspector" else f"server-{name}"
        try:
            v = json.loads((bench.servers / f"node_modules/@modelcontextprotocol/{pkg}/package.json").read_text())["version"]
        except OSError:
            v = "missing"
        pkgs.append(f"{pkg} {v}")
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    return [
        f"host: {platform.node()} {platform.machine()}, {os.cpu_count()} CPUs, load average "
        + " ".join(f"{x:.2f}" for x in os.getloadavg()),
        f"{out([str(bench.launcher), '--version'])}; java: {java[0] if java else '?'}; node {out(['node', '--version'])}",
        "npm: " + ", ".join(pkgs),
    ]


def main():
    args = parse_args()
    bench = Bench(args)
    bench.assess_tiers = None
    try:
        header = versions(bench)
        for line in header:
            print(line, file=sys.stderr)
        bench.warm_up()
        if "a" in args.only:
            bench.bench_one_server(args.rounds)
        if "b" in args.only:
            bench.bench_fleet(args.fleet_rounds)
        if "c" in args.only:
            bench.bench_assess(args.rounds)
        if "d" in args.only:
            bench.bench_sampling(args.sampling_rounds)
        if "e" in args.only:
            bench.bench_large_cache(args.rounds)
        if "f" in args.only:
            bench.bench_floor(args.floor_rounds)
        header.append("load average after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
        print("\n".join(header))
        print()
        print(bench.report())
        if args.json_out:
            Path(args.json_out).write_text(json.dumps(
                {"environment": header, "assessTiers": bench.assess_tiers, "results": bench.results},
                indent=2))
    finally:
        if not bench.keep_work:
            shutil.rmtree(bench.work, ignore_errors=True)


if __name__ == "__main__":
    main()

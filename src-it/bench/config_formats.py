#!/usr/bin/env python3
"""Start-up cost of the TOML and YAML readers: `kcshare assess --all` on fake homes.

One run, interleaved rounds (the order of the contenders rotates every round), wall time of the
whole process around subprocess.run and its CPU time (user + system, from the children's resource
usage), output discarded. Every contender runs the packaged launcher
with its AppCDS archive in a private cache directory, created by an untimed warm-up run.

  json        a home with JSON files only (Kiro, Cursor, VS Code user, Claude Code): 12 servers
  toml        the same plus ~/.codex/config.toml (3 servers)
  yaml        the same plus ~/.continue/config.yaml and ~/.config/goose/config.yaml (3 servers)
  toml+yaml   the same plus all three
  baseline    (with --baseline LAUNCHER) an older build on the JSON-only home: the figure that
              shows whether a host without TOML or YAML files starts as fast as before

  src-it/bench/config_formats.py --rounds 21 [--baseline /path/to/old/kcshare] [--json-out F]
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rounds", type=int, default=21)
    p.add_argument("--launcher", default=str(REPO / "shareability-cli/target/kcshare"))
    p.add_argument("--baseline", help="an older build's launcher, timed on the JSON-only home")
    p.add_argument("--json-out")
    return p.parse_args()


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def home(root, toml, yaml):
    h = root / "home"
    servers = lambda prefix, n: ", ".join(
        f'"{prefix}-{i}": {{"command": "npx", "args": ["-y", "{prefix}-{i}"], "env": {{"K": "v{i}"}}}}'
        for i in range(n))
    write(h / ".kiro/settings/mcp.json", '{"mcpServers": {' + servers("kiro", 3) + "}}")
    write(h / ".cursor/mcp.json", '{"mcpServers": {' + servers("cursor", 3) + "}}")
    write(h / ".config/Code/User/mcp.json", '{"servers": {' + servers("vscode", 3) + "}}")
    write(h / ".claude.json", '{"mcpServers": {' + servers("claude", 3) + "}}")
    if toml:
        write(h / ".codex/config.toml", "".join(
            f'[mcp_servers.codex-{i}]\ncommand = "npx"\nargs = ["-y", "codex-{i}"]\n'
            f'[mcp_servers.codex-{i}.env]\nK = "v{i}"\n\n' for i in range(3)))
    if yaml:
        write(h / ".continue/config.yaml", "mcpServers:\n" + "".join(
            f"  - name: continue-{i}\n    command: npx\n    args: [-y, continue-{i}]\n"
            for i in range(2)))
        write(h / ".config/goose/config.yaml", "extensions:\n  goose-0:\n    enabled: true\n"
              "    type: stdio\n    name: goose-0\n    cmd: npx\n    args: [-y, goose-0]\n")
    (root / "work").mkdir(exist_ok=True)
    (root / "records").mkdir(exist_ok=True)
    return h


def main():
    a = args()
    work = Path(tempfile.mkdtemp(prefix="kcshare-config-bench-"))
    contenders = {}
    for name, toml, yaml in [("json", False, False), ("toml", True, False),
                             ("yaml", False, True), ("toml+yaml", True, True)]:
        root = work / name
        contenders[name] = (a.launcher, root, home(root, toml, yaml))
    if a.baseline:
        root = work / "baseline"
        contenders["baseline"] = (a.baseline, root, home(root, False, False))
    base_env = {k: v for k, v in os.environ.items()
                if not k.startswith(("KCSHARE_", "KIROCREW_", "XDG_", "CODEX_", "GEMINI_",
                                     "CONTINUE_", "CLINE_", "OPENCODE_"))}
    base_env["KCSHARE_CDS"] = "1"

    def run(name):
        launcher, root, h = contenders[name]
        env = dict(base_env, HOME=str(h), XDG_CACHE_HOME=str(root / "cache"))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        p = subprocess.run([launcher, "assess", "--all", "--records-dir", str(root / "records")],
                           cwd=root / "work", env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode != 0:
            sys.exit(f"{name}: exit {p.returncode}: {p.stderr.decode()}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return elapsed * 1000, cpu * 1000

    for name in contenders:  # untimed: creates each launcher's archive, then uses it once
        run(name)
        run(name)
    names = list(contenders)
    samples = {n: [] for n in names}
    cpu = {n: [] for n in names}
    for r in range(a.rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for n in order:
            wall, used = run(n)
            samples[n].append(wall)
            cpu[n].append(used)

    def q(xs, f):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(f * (len(xs) - 1) + 0.5))]

    print(f"rounds={a.rounds} cpus={os.cpu_count()} load={os.getloadavg()[0]:.1f}")
    print(f"{'contender':<10} {'median ms':>9} {'IQR ms':>13} {'vs json':>8} {'paired':>8}"
          f" {'CPU ms':>7} {'CPU vs json':>11}")
    med = {n: statistics.median(samples[n]) for n in names}
    summary = {}
    for n in names:
        paired = statistics.median(x / y for x, y in zip(samples[n], samples["json"]))
        c, cj = statistics.median(cpu[n]), statistics.median(cpu["json"])
        summary[n] = {"median": med[n], "q1": q(samples[n], .25), "q3": q(samples[n], .75),
                      "ratio": med[n] / med["json"], "paired": paired, "cpu": c,
                      "cpuRatio": c / cj}
        print(f"{n:<10} {med[n]:9.0f} {q(samples[n], .25):6.0f}–{q(samples[n], .75):<6.0f}"
              f" {med[n] / med['json']:8.2f} {paired:8.2f} {c:7.0f} {c / cj:11.2f}")
    if a.json_out:
        Path(a.json_out).write_text(
            json.dumps({"samples": samples, "cpu": cpu, "summary": summary}, indent=1))


if __name__ == "__main__":
    main()

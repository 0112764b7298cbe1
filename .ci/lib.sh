# Shared by the container scripts in .ci/: progress lines, the tools they install, podman's CI settings.
# Sourced, never run. Bash only.

step() { printf '\n[%s] == %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
say() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
fail() { printf '[%s] FAILED: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; exit 1; }

# Packages the scripts need on a fresh Debian 12 machine (root).
ensure_container_tools() {
  local missing=()
  # podman builds; dockerd (docker.io) and docker-compose v1 run the compose smoke test (why: container-smoke.sh).
  for tool in podman buildah runc mmdebstrap dockerd docker-compose; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  if ((${#missing[@]})); then
    step "installing ${missing[*]} with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman buildah runc mmdebstrap docker.io docker-compose fuse-overlayfs slirp4netns >/dev/null
  fi
}

# Podman here cannot raise resource limits (no CAP_SYS_RESOURCE) and crun refuses hybrid cgroups:
# a containers.conf of our own, given by CONTAINERS_CONF, so the machine's configuration is untouched.
# Builds keep HEALTHCHECK only in the docker image format.
podman_ci_settings() {
  local conf_dir
  conf_dir=$(mktemp -d /tmp/quarry-ci-containers.XXXXXX)
  cat >"$conf_dir/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
CONF
  export CONTAINERS_CONF="$conf_dir/containers.conf" BUILDAH_FORMAT=docker
}

#!/usr/bin/env bash
# Builds every image docker-compose.yml needs without a registry of images: the
# node:20-bookworm-slim base (when it cannot be pulled), the Weir image (deploy/Dockerfile,
# unchanged) and stand-ins for the third-party services, which deploy/test/compose.offline.yml
# swaps in by `image:` only. For machines that reach the Debian archive and the npm registry but
# not Docker Hub (CI here). Idempotent: a base image that exists is kept, the others are built
# with Docker's layer cache, so a second run takes seconds.
#
#   deploy/test/build-images.sh            # then:
#   docker-compose -f docker-compose.yml -f deploy/test/compose.offline.yml up -d
#
# Needs root (debootstrap), docker, debootstrap, and for the Kafka stand-in the broker's jars
# (`pnpm kafka:fetch`, which the tests' broker uses too).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# The classic builder: Debian's docker.io has no buildx. Builds use the host's network, since
# the default bridge may have no route out where only the host's traffic is let through.
export DOCKER_BUILDKIT=0
build() { docker build --network=host --force-rm -q "$@" >/dev/null; }
exists() { docker image inspect "$1" >/dev/null 2>&1; }
say() { printf 'build-images: %s\n' "$*" >&2; }

# 1. Debian bookworm, minbase, as an image: what every stand-in and the node base start from.
DEBIAN=weir-test/debian:bookworm
if ! exists "$DEBIAN"; then
  say "debootstrap bookworm (minbase) -> $DEBIAN"
  rootfs="$(mktemp -d /tmp/weir-rootfs.XXXXXX)"
  trap 'rm -rf "$rootfs"' EXIT
  debootstrap --variant=minbase bookworm "$rootfs" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >/dev/null
  # What Debian's own bookworm-slim image leaves out: package lists, caches, docs and man pages.
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/*
  # apt in the stand-ins' builds installs without recommends and keeps no docs, as the slim images do.
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' >"$rootfs/etc/apt/apt.conf.d/90weir-slim"
  printf 'path-exclude /usr/share/doc/*\npath-exclude /usr/share/man/*\npath-exclude /usr/share/info/*\npath-exclude /usr/share/locale/*\n' \
    >"$rootfs/etc/dpkg/dpkg.cfg.d/90weir-slim"
  tar -C "$rootfs" -c . | docker import -c 'CMD ["bash"]' - "$DEBIAN" >/dev/null
  rm -rf "$rootfs"
  trap - EXIT
fi

# 2. node:20-bookworm-slim, as Docker Hub's: Node 20 and npm (the host's), user node 1000:1000.
NODE=node:20-bookworm-slim
if ! exists "$NODE" && ! docker pull -q "$NODE" >/dev/null 2>&1; then
  node_version="$(node --version)"
  [[ "$node_version" == v20.* ]] || { say "the host's node is $node_version, the base needs Node 20"; exit 1; }
  say "$NODE from $DEBIAN and the host's Node $node_version"
  ctx="$(mktemp -d /tmp/weir-node.XXXXXX)"
  trap 'rm -rf "$ctx"' EXIT
  cp "$(command -v node)" "$ctx/node"
  cp -r "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$ctx/npm"
  # npm reaches the registry through this machine's TLS proxy only with the machine's CA bundle:
  # only then does the base carry it (NODE_EXTRA_CA_CERTS, as on the host).
  ca_line=""
  if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
    cp "$NODE_EXTRA_CA_CERTS" "$ctx/ca.crt"
    ca_line='COPY ca.crt /etc/ssl/certs/weir-host-ca.crt
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/weir-host-ca.crt'
  fi
  cat >"$ctx/Dockerfile" <<DOCKERFILE
FROM $DEBIAN
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx
$ca_line
ENV NODE_VERSION=${node_version#v}
CMD ["node"]
DOCKERFILE
  build -t "$NODE" "$ctx"
  rm -rf "$ctx"
  trap - EXIT
fi

# 3. The stand-ins, each from its directory here, built in the background while the Weir image
# builds: they mostly wait on the Debian archive, the Weir image on the CPU.
work="$(mktemp -d /tmp/weir-images.XXXXXX)"
trap 'rm -rf "$work"' EXIT
# Kafka's jars: the class path the tests' broker runs on (packages/kafka-broker), copied into
# the context. `pnpm kafka:fetch` resolves them once with Maven and caches the class path (line 2).
(cd "$root" && pnpm kafka:fetch >/dev/null)
classpath="$(sed -n 2p "$root/packages/kafka-broker/maven/.classpath" 2>/dev/null || true)"
[ -n "$classpath" ] || { say "no Kafka class path (pnpm kafka:fetch needs a JDK and Maven)"; exit 1; }
mkdir -p "$work/kafka/libs"
cp "$here/kafka/"* "$work/kafka/"
IFS=: read -r -a jars <<<"$classpath"
cp "${jars[@]}" "$work/kafka/libs/"

say "stand-ins: etcd, S3 (s3rver), Kafka, Prometheus, PostgreSQL (in the background)"
pids=()
names=()
background() {
  local name="$1"
  shift
  build "$@" 2>"$work/$name.log" &
  pids+=("$!")
  names+=("$name")
}
background etcd --build-arg "BASE=$DEBIAN" -t weir-test/etcd:local "$here/etcd"
background s3 --build-arg "BASE=$NODE" -t weir-test/s3:local "$here/s3"
background prometheus --build-arg "BASE=$DEBIAN" -t weir-test/prometheus:local "$here/prometheus"
background postgres --build-arg "BASE=$DEBIAN" -t weir-test/postgres:local "$here/postgres"
background kafka --build-arg "BASE=$DEBIAN" -t weir-test/kafka:local "$work/kafka"

# 4. Weir, from the shipped Dockerfile.
say "weir:local (deploy/Dockerfile)"
weir_status=0
build -f "$root/deploy/Dockerfile" -t weir:local "$root" || weir_status=$?

failed=0
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    say "building the ${names[$i]} stand-in failed:"
    cat "$work/${names[$i]}.log" >&2
    failed=1
  fi
done
[ "$weir_status" -eq 0 ] || { say "building weir:local failed"; exit 1; }
[ "$failed" -eq 0 ] || exit 1
say "done"

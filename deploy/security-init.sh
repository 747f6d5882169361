#!/bin/sh
# docker-compose.yml's weir-init: the cluster's secrets, made once, on the first `up`; a later
# `up` finds the tokens file and leaves everything as it is (`docker compose down -v` removes
# the volumes, and the next `up` makes new ones). Runs as root to hand each file to the user
# that reads it: the Weir image's `node` (1000), etcd and Prometheus (their images' users).
#
#   /etc/weir/security   certificates, keys, tokens file    JobManagers, TaskManagers (read-only)
#   /etc/weir/ca         the CA's key                       here only
#   /etc/etcd/tls        etcd's certificate, key, the CA    etcd (read-only)
#   /etc/prometheus/weir a viewer token                     Prometheus (read-only)
set -eu
dir=/etc/weir/security
if [ -f "$dir/tokens" ]; then
  echo "weir-init: $dir already holds the cluster's secrets; the admin token was printed by the first run"
  exit 0
fi
domain="${NETWORK_DOMAIN:?the network's name, which TaskManagers are reached under}"

# The names each process is reached at: the JobManagers and etcd by service name, TaskManagers
# as <container id>.<network> (deploy/entrypoint.sh), the published ports from the host as
# localhost. The admin token is printed here, once.
weir security init "$dir" \
  --host localhost --host jobmanager-1 --host jobmanager-2 --host etcd --host "*.$domain" \
  --ip 127.0.0.1

# Prometheus scrapes with a token of its own, a viewer's (read only).
token="weir_$(node -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("base64url"))')"
printf 'sha256:%s viewer prometheus\n' "$(printf %s "$token" | sha256sum | cut -d' ' -f1)" >>"$dir/tokens"
printf %s "$token" >/etc/prometheus/weir/token
# Prometheus runs as nobody; only its container mounts this volume.
chmod 0644 /etc/prometheus/weir/token

# etcd's own: only etcd mounts this volume, and its images run as root or as an etcd user of
# their own, so the key is readable there by any user.
cp "$dir/etcd.pem" "$dir/etcd-key.pem" "$dir/ca.pem" /etc/etcd/tls/
chmod 0644 /etc/etcd/tls/*
rm "$dir/etcd.pem" "$dir/etcd-key.pem"

# The CA's key signs certificates: no Weir process needs it, and TaskManagers run jobs' code.
mv "$dir/ca-key.pem" /etc/weir/ca/
chown -R 1000:1000 "$dir"
echo "weir-init: secrets written; CA: $dir/ca.pem (docker compose exec -T jobmanager-1 cat $dir/ca.pem > weir-ca.pem)"

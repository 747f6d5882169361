#!/bin/sh
# TaskManagers tell their peers where to fetch data from (taskmanager.host). In a container
# that is the container's own name or address, which compose cannot put in the environment:
# find it here unless it was set. With TASKMANAGER_HOST_DOMAIN (docker-compose.yml: the
# network's name) it is <hostname>.<domain>: Docker's DNS answers a container's short ID (its
# hostname) qualified by its network's name, and a certificate for *.<domain> covers it, which
# internal TLS checks. Without it, the container's IP address.
set -eu
if [ -z "${WEIR_TASKMANAGER_HOST:-}" ]; then
  if [ -n "${TASKMANAGER_HOST_DOMAIN:-}" ]; then
    WEIR_TASKMANAGER_HOST="$(hostname).$TASKMANAGER_HOST_DOMAIN"
  else
    WEIR_TASKMANAGER_HOST="$(hostname -i | cut -d' ' -f1)"
  fi
  export WEIR_TASKMANAGER_HOST
fi
exec "$@"

#!/bin/sh
# TaskManagers tell their peers where to fetch data from (taskmanager.host). In a container
# that is the container's own address, which compose cannot put in the environment: find it
# here unless it was set.
set -eu
if [ -z "${WEIR_TASKMANAGER_HOST:-}" ]; then
  WEIR_TASKMANAGER_HOST="$(hostname -i | cut -d' ' -f1)"
  export WEIR_TASKMANAGER_HOST
fi
exec "$@"

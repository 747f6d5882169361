#!/bin/sh
# As the official image: every KAFKA_<NAME> variable is the property <name> (lower case, _ as .),
# the log directory is formatted on the first start (CLUSTER_ID, or a fixed one), then the broker runs.
set -eu
conf=/opt/kafka/config/server.properties
env | sed -n 's/^KAFKA_\([A-Z0-9_]*\)=\(.*\)$/\1 \2/p' | while read -r name value; do
  printf '%s=%s\n' "$(printf '%s' "$name" | tr 'A-Z_' 'a-z.')" "$value"
done >"$conf"
cp=/opt/kafka/libs/*
java -cp "$cp" kafka.tools.StorageTool format --ignore-formatted -t "${CLUSTER_ID:-5L6g3nShT-eMCtK--X86sw}" -c "$conf" >/dev/null
exec java -Xms128m -Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true -cp "$cp" kafka.Kafka "$conf"

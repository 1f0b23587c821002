#!/usr/bin/env bash
# Stops the server start_postgres.sh started in DIR (the data stay; start it again with
# start_postgres.sh DIR).
set -euo pipefail
dir="${1:?usage: stop_postgres.sh DIR}"
bin="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
as_owner=()
[ "$(id -u)" -eq 0 ] && as_owner=(runuser -u postgres --)
cd /
"${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop

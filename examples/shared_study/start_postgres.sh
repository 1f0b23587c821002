#!/usr/bin/env bash
# Starts a PostgreSQL server for gpbandit's shared studies in a directory of your choice and
# prints the URL workers use. Debian 12: apt-get install postgresql (the server binaries; the
# system's own cluster need not run).
#
#   examples/shared_study/start_postgres.sh DIR [PORT]      # PORT defaults to 5433
#   LISTEN='*' examples/shared_study/start_postgres.sh DIR   # reachable from other machines
#   INITDB_OPTIONS=--no-sync ...                            # a throw-away server, faster
#   examples/shared_study/stop_postgres.sh DIR
#
# The first run creates the server in DIR/data, a role and a database both named gpbandit, and
# a random password kept in DIR/pgpass (mode 600, libpq's password-file format). Workers find
# the password through PGPASSFILE (or ~/.pgpass), never on the command line. Later runs start
# the same server again. Run as root, the server runs as the user postgres (PostgreSQL refuses
# to run as root) and DIR is given to it.
set -euo pipefail
dir="${1:?usage: start_postgres.sh DIR [PORT]}"
port="${2:-5433}"
listen="${LISTEN:-localhost}"
bin="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
[ -x "$bin/initdb" ] || { echo "no PostgreSQL server binaries (apt-get install postgresql)" >&2; exit 2; }
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
cd /  # the server's user may not be able to enter the caller's directory
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres: "$dir"
  as_owner=(runuser -u postgres --)
fi
superuser="$("${as_owner[@]}" id -un)"

if [ ! -f "$dir/data/PG_VERSION" ]; then
  password="$(head -c 24 /dev/urandom | base64 | tr -d '/+=\n')"
  # shellcheck disable=SC2086
  "${as_owner[@]}" "$bin/initdb" -D "$dir/data" -U "$superuser" --auth-local=peer \
      --auth-host=scram-sha-256 ${INITDB_OPTIONS:-} > "$dir/initdb.log"
  # Other machines (LISTEN set) reach the server over TCP with the password; use a firewall,
  # and ssl = on with a certificate (then sslmode=verify-full in the URL) on untrusted networks.
  if [ "$listen" != "localhost" ]; then
    echo "host all gpbandit 0.0.0.0/0 scram-sha-256" | "${as_owner[@]}" tee -a "$dir/data/pg_hba.conf" > /dev/null
    echo "host all gpbandit ::/0 scram-sha-256" | "${as_owner[@]}" tee -a "$dir/data/pg_hba.conf" > /dev/null
  fi
  "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-p $port -k '$dir' -c listen_addresses='$listen'" start > /dev/null
  "${as_owner[@]}" "$bin/psql" -X -q -h "$dir" -p "$port" -d postgres -v ON_ERROR_STOP=1 \
      -v password="$password" <<'SQL'
CREATE ROLE gpbandit LOGIN PASSWORD :'password';
CREATE DATABASE gpbandit OWNER gpbandit;
SQL
  umask 077
  host="$(hostname)"
  [ "$listen" = "localhost" ] && host=localhost
  printf '%s:%s:gpbandit:gpbandit:%s\n' "$host" "$port" "$password" > "$dir/pgpass"
  printf '%s\n' "$listen" > "$dir/listen"
else
  listen="$(cat "$dir/listen")"
  "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-p $port -k '$dir' -c listen_addresses='$listen'" start > /dev/null
fi
host="$(cut -d: -f1 "$dir/pgpass")"
echo "PostgreSQL for gpbandit is running (data in $dir/data, log in $dir/server.log)."
echo "Give the workers the password file and the URL:"
echo "  export PGPASSFILE=$dir/pgpass"
echo "  postgresql://gpbandit@$host:$port/gpbandit"

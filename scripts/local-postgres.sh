#!/usr/bin/env bash
# A PostgreSQL server of your own, in one folder, for trying a shared catalog (README, "Scaling out"):
#
#   scripts/local-postgres.sh start DIR [PORT]   initdb into DIR/data (first time only), start the server with its
#                                                Unix socket in DIR (no TCP listener), create the database
#                                                `stickers`; prints the catalog's address on stdout
#   scripts/local-postgres.sh stop DIR           stop it (the data stays in DIR: `start` again continues)
#   scripts/local-postgres.sh status DIR         whether it runs, and its address
#
# PORT (default 5432) only names the socket file (DIR/.s.PGSQL.PORT): nothing listens on the network, so it
# never meets another server on the machine. Access is trusted on that socket, so anyone who can reach DIR
# can use the database: this is for trying things out, not for a shared server.
# PostgreSQL refuses to run as root: when root runs this script, the server runs as the `postgres` user
# (Debian's package makes it), who owns DIR and must be able to reach it (choose a folder under /tmp, not
# under /root). The role you connect as is named after you ($PGUSER, else your login name) and is the
# server's superuser. The server's programs are found in $PG_BINDIR, else the newest
# /usr/lib/postgresql/N/bin, else on the PATH.
set -euo pipefail

usage() {
  echo "usage: $0 start DIR [PORT] | stop DIR | status DIR" >&2
  exit 64
}
[ $# -ge 2 ] || usage
action=$1
dir=$(realpath -m -- "$2")
# The port of a server made earlier is kept beside it.
port=${3:-$(cat "$dir/port" 2>/dev/null || echo 5432)}
case $port in '' | *[!0-9]*) echo "error: the port must be a number, not '$port'" >&2; exit 64 ;; esac
database=stickers
role=${PGUSER:-$(id -un)}
data=$dir/data

bindir=${PG_BINDIR:-}
if [ -z "$bindir" ]; then
  newest=$(ls /usr/lib/postgresql 2>/dev/null | grep -E '^[0-9]+$' | sort -n | tail -1 || true)
  if [ -n "$newest" ] && [ -x "/usr/lib/postgresql/$newest/bin/initdb" ]; then
    bindir=/usr/lib/postgresql/$newest/bin
  elif command -v initdb >/dev/null; then
    bindir=$(dirname "$(command -v initdb)")
  else
    echo "error: PostgreSQL's server is not installed (no initdb): run 'make test-deps' or 'sudo apt-get install postgresql'" >&2
    exit 69
  fi
fi

# as_server COMMAND...: runs a server program as the user the server runs as.
as_server() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# The address as `catalog --catalog` takes it (the folder percent-encoded where it has to be).
address() {
  local encoded="" char i
  for ((i = 0; i < ${#dir}; i++)); do
    char=${dir:i:1}
    case $char in [A-Za-z0-9/._~-]) encoded+=$char ;; *) encoded+=$(printf '%%%02X' "'$char") ;; esac
  done
  echo "postgres://$role@/$database?host=$encoded&port=$port"
}

running() {
  [ -f "$data/PG_VERSION" ] && as_server "$bindir/pg_ctl" status -D "$data" >/dev/null 2>&1
}

case $action in
start)
  if running; then
    port=$(cat "$dir/port")
    echo "PostgreSQL is already running in $dir" >&2
    address
    exit 0
  fi
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || { echo "error: running as root, and there is no postgres user to run the server as (apt-get install postgresql makes it)" >&2; exit 69; }
    chown postgres: "$dir"
    if ! runuser -u postgres -- test -w "$dir"; then
      echo "error: the postgres user cannot reach $dir (a folder above it is private): choose a folder under /tmp" >&2
      exit 74
    fi
  fi
  # The socket path must fit in 107 bytes.
  if [ $(( ${#dir} + ${#port} + 10 )) -gt 107 ]; then
    echo "error: $dir is too long a path for the server's socket (at most about 95 characters)" >&2
    exit 64
  fi
  if [ ! -f "$data/PG_VERSION" ]; then
    as_server "$bindir/initdb" -D "$data" -U "$role" --auth=trust -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
      || { echo "error: initdb failed; its output is in $dir/initdb.log" >&2; exit 74; }
    # Appended: the last value of a setting wins. Socket only, in DIR.
    as_server tee -a "$data/postgresql.conf" >/dev/null <<EOF

# scripts/local-postgres.sh: a server of one folder, reached through its Unix socket only
listen_addresses = ''
unix_socket_directories = '$dir'
port = $port
EOF
  else
    # A server made earlier: a PORT given now replaces the one it had (the last setting wins).
    as_server tee -a "$data/postgresql.conf" >/dev/null <<<"port = $port"
  fi
  echo "$port" >"$dir/port"
  as_server "$bindir/pg_ctl" start -w -t 60 -s -D "$data" -l "$dir/server.log" >&2 \
    || { echo "error: the server did not start; see $dir/server.log" >&2; exit 69; }
  if [ -z "$("$bindir/psql" -X -A -t -h "$dir" -p "$port" -U "$role" -d postgres \
              -c "SELECT 1 FROM pg_database WHERE datname = '$database'")" ]; then
    "$bindir/psql" -X -q -h "$dir" -p "$port" -U "$role" -d postgres -c "CREATE DATABASE $database" >/dev/null
  fi
  echo "PostgreSQL $(cat "$data/PG_VERSION") is running in $dir (socket only); stop it with: $0 stop $dir" >&2
  address
  ;;
stop)
  if running; then
    as_server "$bindir/pg_ctl" stop -w -s -m fast -D "$data"
    echo "stopped the PostgreSQL server in $dir (its data is kept there)" >&2
  else
    echo "no PostgreSQL server is running in $dir" >&2
  fi
  ;;
status)
  if running; then
    address
  else
    echo "no PostgreSQL server is running in $dir" >&2
    exit 3
  fi
  ;;
*) usage ;;
esac

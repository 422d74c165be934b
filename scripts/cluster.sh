# A throwaway PostgreSQL cluster for the demo, the tests and the bench. Source this file, then:
#
#   cluster_start preload|no-preload [setting...]
#                                       initdb on first use, (re)start with or without idgen preloaded
#                                       (and these lines of configuration, "idgen.launch_id = 3")
#   cluster_stop                        stop the server (the data directory stays until exit)
#
# The server runs as an unprivileged user (initdb refuses root), in a private temporary directory,
# listening only on a Unix socket inside it. On exit, however the script ends, the server is stopped
# and the directory removed. psql, pgbench and pg_regress find the server through PGHOST/PGPORT/PGUSER.

PG_CONFIG=${PG_CONFIG:-pg_config}
PG_BIN=$("$PG_CONFIG" --bindir)
CLUSTER_DIR=""
export PGHOST="" PGPORT=54329 PGUSER=postgres PGDATABASE=postgres

if [ "$(id -u)" -eq 0 ]; then
  CLUSTER_OWNER=postgres
  id "$CLUSTER_OWNER" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$CLUSTER_OWNER"
  as_owner() { runuser -u "$CLUSTER_OWNER" -- "$@"; }
else
  CLUSTER_OWNER=$(id -un)
  as_owner() { "$@"; }
fi

cluster_cleanup() {
  local status=$?
  if [ -n "$CLUSTER_DIR" ] && [ -d "$CLUSTER_DIR" ]; then
    if [ -f "$CLUSTER_DIR/data/postmaster.pid" ]; then
      as_owner "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -m fast -w stop >/dev/null 2>&1 ||
        as_owner "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$CLUSTER_DIR"
  fi
  return $status
}
trap cluster_cleanup EXIT
trap 'exit 130' INT TERM

cluster_log() { cat "$CLUSTER_DIR/server.log" 2>/dev/null; }

cluster_start() {
  local preload=$1
  if [ -z "$CLUSTER_DIR" ]; then
    CLUSTER_DIR=$(mktemp -d "${TMPDIR:-/tmp}/idgen-cluster.XXXXXX")
    chown "$CLUSTER_OWNER" "$CLUSTER_DIR"
    chmod 700 "$CLUSTER_DIR"
    export PGHOST="$CLUSTER_DIR"
    as_owner "$PG_BIN/initdb" -D "$CLUSTER_DIR/data" -U postgres --auth=trust --no-sync -E UTF8 --locale=C >/dev/null
    cat >>"$CLUSTER_DIR/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$CLUSTER_DIR'
port = $PGPORT
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
include_if_exists = 'idgen.conf'
CONF
  else
    cluster_stop
  fi
  shift
  { [ "$preload" != preload ] || echo "shared_preload_libraries = 'idgen'"; [ $# -eq 0 ] || printf '%s\n' "$@"; } >"$CLUSTER_DIR/data/idgen.conf"
  chown "$CLUSTER_OWNER" "$CLUSTER_DIR/data/idgen.conf"
  if ! as_owner "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -l "$CLUSTER_DIR/server.log" -w start >/dev/null; then
    echo "the server did not start; its log:" >&2
    cluster_log >&2
    return 1
  fi
  # After a restart every family starts above the durable mark (a lease ahead of the last ID, more
  # where a test moved an epoch later): tests that check an ID's time against the clock start once
  # the clock has passed it (60 s at most).
  local lease_ms
  lease_ms=$("$PG_BIN/psql" -X -At -d postgres -c "
    SELECT (('x' || lpad(split_part(p, '/', 1), 8, '0') || lpad(split_part(p, '/', 2), 8, '0'))::bit(64)::bigint >> 24) * 10
      - (extract(epoch FROM clock_timestamp()) * 1000)::bigint
    FROM (SELECT pg_replication_origin_progress('idgen_mark', false)::text AS p) s WHERE p IS NOT NULL" 2>/dev/null || true)
  if [ -n "$lease_ms" ] && [ "$lease_ms" -gt 0 ]; then
    sleep "$(awk -v ms="$lease_ms" 'BEGIN { s = ms / 1000 + 0.05; if (s > 60) s = 60; print s }')"
  fi
}

cluster_stop() {
  as_owner "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -m fast -w stop >/dev/null
}

# Crash: kill the server without a shutdown checkpoint, then start it again (crash recovery).
cluster_crash_restart() {
  as_owner "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -m immediate -w stop >/dev/null
  as_owner "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -l "$CLUSTER_DIR/server.log" -w start >/dev/null
}

# psql that stops at the first error and prints bare values.
q() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }

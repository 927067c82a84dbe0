#!/usr/bin/env bash
# A throwaway PostgreSQL 15 + pgvector server for ramem's tests and benches.
#
#   scripts/postgres-test-server.sh [start]   install if missing, start, print URL
#   scripts/postgres-test-server.sh stop      stop the server (data kept)
#   scripts/postgres-test-server.sh url       print the URL only
#
# Usage: export RAMEM_TEST_POSTGRES_URL=$(scripts/postgres-test-server.sh)
#
# Idempotent: every step checks before it acts, so a second run only starts
# the server (or finds it running). Progress goes to stderr; stdout carries
# the URL alone so callers can capture it.
#
# Why it looks like this (facts measured on Debian bookworm machines):
# - bookworm ships PostgreSQL 15 but no pgvector binary package; trixie's
#   pgvector 0.8.0 *source* package builds against postgresql-server-dev-15,
#   so we add a deb-src entry for trixie on the machine's own mirror.
# - initdb/pg_ctl refuse to run as root: they run as the `postgres` user.
# - data and socket live under /tmp, the server listens on 127.0.0.1 only,
#   on a fixed non-default port so it never collides with a system cluster.
set -euo pipefail

PG_VERSION=15
PG_BIN="/usr/lib/postgresql/${PG_VERSION}/bin"
PG_CONFIG="${PG_BIN}/pg_config"
BASE_DIR="${RAMEM_PG_DIR:-/tmp/ramem-pg}"
DATA_DIR="${BASE_DIR}/data"
SOCKET_DIR="${BASE_DIR}/socket"
LOG_FILE="${BASE_DIR}/server.log"
BUILD_DIR="/tmp/ramem-pgvector-build"
PORT="${RAMEM_PG_PORT:-54329}"
ROLE=ramem
PASSWORD=ramem
DATABASE=ramem_test
URL="postgres://${ROLE}:${PASSWORD}@127.0.0.1:${PORT}/${DATABASE}"

log() { printf '[postgres-test-server] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

as_postgres() { runuser -u postgres -- "$@"; }

need_root() {
  [ "$(id -u)" -eq 0 ] || die "run as root (installs packages and switches to the postgres user)"
}

APT_UPDATED=0
apt_update_once() {
  if [ "$APT_UPDATED" -eq 0 ]; then
    log "apt-get update"
    apt-get update -qq >&2
    APT_UPDATED=1
  fi
}

install_postgres() {
  local missing=()
  dpkg-query -W -f='${Status}' "postgresql-${PG_VERSION}" 2>/dev/null | grep -q "install ok installed" || missing+=("postgresql-${PG_VERSION}")
  dpkg-query -W -f='${Status}' "postgresql-server-dev-${PG_VERSION}" 2>/dev/null | grep -q "install ok installed" || missing+=("postgresql-server-dev-${PG_VERSION}")
  if [ "${#missing[@]}" -eq 0 ]; then
    log "packages present: postgresql-${PG_VERSION}, postgresql-server-dev-${PG_VERSION}"
    return
  fi
  log "installing ${missing[*]}"
  # Installing would otherwise create and start the system cluster on 5432.
  mkdir -p /etc/postgresql-common/createcluster.d
  [ -f /etc/postgresql-common/createcluster.d/ramem-no-main.conf ] ||
    echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.d/ramem-no-main.conf
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2; then
    apt_update_once
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  fi
}

# The mirror the machine already uses for bookworm (deb822 .sources or
# one-line .list), so the trixie source entry goes through the same route.
detect_mirror() {
  local mirror=""
  shopt -s nullglob
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    mirror=$(awk '
      /^Types:/ { deb = ($0 ~ /(^|[ \t])deb([ \t]|$)/) }
      /^URIs:/ && deb { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }
      /^$/ { deb = 0 }
    ' "$f")
    [ -n "$mirror" ] && break
  done
  if [ -z "$mirror" ]; then
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      [ -f "$f" ] || continue
      mirror=$(awk '$1 == "deb" && $0 ~ /bookworm/ && $0 !~ /security/ {
        for (i = 2; i <= NF; i++) if ($i ~ /^(https?|file|cdrom):/) { print $i; exit } }' "$f")
      [ -n "$mirror" ] && break
    done
  fi
  shopt -u nullglob
  echo "${mirror:-http://deb.debian.org/debian}"
}

install_pgvector() {
  local sharedir pkglibdir
  sharedir=$("$PG_CONFIG" --sharedir)
  pkglibdir=$("$PG_CONFIG" --pkglibdir)
  if [ -f "${sharedir}/extension/vector.control" ] && [ -f "${pkglibdir}/vector.so" ]; then
    log "pgvector present: $(grep default_version "${sharedir}/extension/vector.control")"
    return
  fi
  local list=/etc/apt/sources.list.d/ramem-trixie-src.list
  if [ ! -f "$list" ]; then
    local mirror
    mirror=$(detect_mirror)
    log "adding deb-src for trixie on ${mirror} (${list})"
    echo "deb-src ${mirror} trixie main" >"$list"
    APT_UPDATED=0
  fi
  local tools=()
  command -v dpkg-source >/dev/null || tools+=(dpkg-dev)
  { command -v make >/dev/null && command -v cc >/dev/null; } || tools+=(build-essential)
  if [ "${#tools[@]}" -gt 0 ]; then
    apt_update_once
    log "installing build tools: ${tools[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${tools[@]}" >&2
  fi
  mkdir -p "$BUILD_DIR"
  local src
  src=$(find "$BUILD_DIR" -maxdepth 1 -type d -name 'pgvector-*' | head -n1)
  if [ -z "$src" ]; then
    apt_update_once
    log "apt-get source pgvector (trixie) into ${BUILD_DIR}"
    (cd "$BUILD_DIR" && apt-get source -qq pgvector/trixie >&2)
    src=$(find "$BUILD_DIR" -maxdepth 1 -type d -name 'pgvector-*' | head -n1)
    [ -n "$src" ] || die "apt-get source pgvector produced no source folder in ${BUILD_DIR}"
    # Needed only for this download: without it the machine's apt stays bookworm-only
    # (the next apt-get update forgets trixie's source index).
    rm -f "$list"
  fi
  log "building $(basename "$src")"
  make -s -C "$src" PG_CONFIG="$PG_CONFIG" with_llvm=no >&2
  make -s -C "$src" PG_CONFIG="$PG_CONFIG" with_llvm=no install >&2
}

is_running() {
  [ -f "${DATA_DIR}/postmaster.pid" ] && as_postgres "${PG_BIN}/pg_ctl" -D "$DATA_DIR" status >/dev/null 2>&1
}

psql_admin() {
  as_postgres "${PG_BIN}/psql" -X -q -v ON_ERROR_STOP=1 -h "$SOCKET_DIR" -p "$PORT" -U postgres "$@"
}

init_cluster() {
  mkdir -p "$BASE_DIR" "$SOCKET_DIR"
  chown postgres:postgres "$BASE_DIR" "$SOCKET_DIR"
  if [ -f "${DATA_DIR}/PG_VERSION" ]; then
    return
  fi
  log "initdb ${DATA_DIR}"
  as_postgres "${PG_BIN}/initdb" -D "$DATA_DIR" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
    -E UTF8 --locale=C.UTF-8 >/dev/null
  cat >>"${DATA_DIR}/postgresql.conf" <<EOF
# ramem test server
listen_addresses = '127.0.0.1'
port = ${PORT}
unix_socket_directories = '${SOCKET_DIR}'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 256MB
maintenance_work_mem = 256MB
EOF
}

start_server() {
  if is_running; then
    log "server already running on 127.0.0.1:${PORT}"
    return
  fi
  log "starting server on 127.0.0.1:${PORT} (log ${LOG_FILE})"
  touch "$LOG_FILE" && chown postgres:postgres "$LOG_FILE"
  if ! as_postgres "${PG_BIN}/pg_ctl" -D "$DATA_DIR" -l "$LOG_FILE" -w -t 60 start >/dev/null; then
    log "the server did not start; last lines of ${LOG_FILE}:"
    tail -n 20 "$LOG_FILE" >&2
    die "is port ${PORT} taken? set RAMEM_PG_PORT to use another one"
  fi
}

create_role_and_db() {
  if ! psql_admin -d postgres -tAc "SELECT 1 FROM pg_roles WHERE rolname = '${ROLE}'" | grep -q 1; then
    log "creating role ${ROLE}"
    psql_admin -d postgres -c "CREATE ROLE ${ROLE} LOGIN PASSWORD '${PASSWORD}' CREATEDB"
  fi
  if ! psql_admin -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '${DATABASE}'" | grep -q 1; then
    log "creating database ${DATABASE}"
    psql_admin -d postgres -c "CREATE DATABASE ${DATABASE} OWNER ${ROLE}"
  fi
  # The extension is created by the superuser once, so the ramem role needs no
  # superuser rights; the store's own CREATE EXTENSION IF NOT EXISTS is a no-op.
  local db
  for db in "$DATABASE" template1; do
    psql_admin -d "$db" -c "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS vector"
  done
}

cmd_start() {
  need_root
  local t0=$SECONDS
  install_postgres
  install_pgvector
  init_cluster
  start_server
  create_role_and_db
  log "ready in $((SECONDS - t0)) s: ${URL}"
  echo "$URL"
}

cmd_stop() {
  if is_running; then
    log "stopping server"
    as_postgres "${PG_BIN}/pg_ctl" -D "$DATA_DIR" -m fast -w stop >/dev/null
  else
    log "server not running"
  fi
}

case "${1:-start}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  url) echo "$URL" ;;
  *) die "unknown subcommand '${1}' (start | stop | url)" ;;
esac

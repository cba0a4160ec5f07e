#!/usr/bin/env bash
# Vertex's one entry point on a fresh Debian 12 machine: installs the Debian
# packages the build needs (only those missing; quiet when none are), builds
# incrementally into build/, then runs what was asked.
#
#   bash deploy/vertex.sh demo [vertexctl demo flags]   start vertexd on loopback, run the demo site through it, stop it
#   bash deploy/vertex.sh test                          build and run the whole test suite (ctest), then
#                                                       each fuzz target for 15 s (VERTEX_FUZZ_SMOKE=0: not)
#   bash deploy/vertex.sh fuzz [TARGET] [SECONDS]       clang + ASan/UBSan libFuzzer build in $BUILD-fuzz; runs
#                                                       TARGET (default: every one) SECONDS each (default 60)
#   bash deploy/vertex.sh bench [NAME] [FLAGS]          build and run the benchmarks parse, extract, monitor, xpath_export, learn, hostile,
#                                                       annotate, amber, list_extract, list_finder, link_discovery;
#                                                       list_eval (the list finder's Table 2 / Fig. 5, minutes) and
#                                                       list_model_store (trained from a store) only by NAME
#                                                       (NAME: only that one, with FLAGS; else FLAGS go to parse)
#   bash deploy/vertex.sh bench load [SWDE_DIR] [FLAGS] the ExtractionService load generator against vertexd
#                                                       (learns the SWDE site, finds peak, p50/p99 at half of
#                                                       peak with --max-concurrent-extractions = cores and
#                                                       with 0 (a second vertexd), same run; FLAGS: load_gen sweep)
#   bash deploy/vertex.sh bench soak [SECONDS] [SWDE_DIR] vertexd + an extraction replica under load for SECONDS
#                                                        (default 600): their RSS and open fds over time, flat or not
#   bash deploy/vertex.sh bench scale [SWDE_DIR]        vertexd (the primary) + 3 extraction replicas: load_gen scale
#                                                       drives N = 1, 2, 3 of them at peak with client-side round
#                                                       robin; pages/s total and per replica, CPU, spread
#   bash deploy/vertex.sh bench feed [FLAGS]           WTM's Table 5 on 20 generated blogs learnt from their feeds (no
#                                                       editor) and P/R on held-out pages (bench/feed_eval.cc)
#   bash deploy/vertex.sh bench http [FLAGS]           Extract over the HTTP/JSON face against gRPC unary, same vertexd
#                                                       and page, alternating: p50/p90/p99 each (--calls N, default 1000)
#   bash deploy/vertex.sh bench memory                  RSS of vertexd and a replica over 100 sites x 20 clusters
#                                                       of rules against an empty store; per-page peak memory
#   bash deploy/vertex.sh bench lxml [SWDE_DIR]         the baseline a Scrapy user has: lxml parse, and parse + 5
#                                                       hand-written XPaths (bench/baselines/lxml_baseline.py, Debian's
#                                                       python3-lxml), on SWDE booksamillion and the demo's product pages
#   bash deploy/vertex.sh build                         install and build only
#   bash deploy/vertex.sh vertexctl ARGS...             build, then run vertexctl with ARGS
#
# Environment: VERTEX_BUILD_DIR (default: build/ in the checkout),
# VERTEX_BUILD_TYPE (default RelWithDebInfo), VERTEX_JOBS (default: cores),
# VERTEX_FUZZ_WORK (fuzz corpus and crash files; default $BUILD-fuzz/fuzz-work).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${VERTEX_BUILD_DIR:-$ROOT/build}"
BUILD_TYPE="${VERTEX_BUILD_TYPE:-RelWithDebInfo}"
JOBS="${VERTEX_JOBS:-$(nproc 2>/dev/null || echo 2)}"

PACKAGES=(
  g++ cmake ninja-build pkg-config
  libgumbo-dev libxml2-dev libre2-dev libabsl-dev
  libprotobuf-dev protobuf-compiler librocksdb-dev
  libgtest-dev libgmock-dev libbenchmark-dev xsltproc
  libgrpc++-dev protobuf-compiler-grpc libspdlog-dev openssl
  libcurl4-openssl-dev zlib1g-dev libcpp-httplib-dev libssl-dev
  docker-compose python3-yaml
  python3-grpcio python3-protobuf python3-setuptools python3-venv
  chromium chromium-driver python3-selenium
  clang libclang-rt-14-dev
)

usage() {
  sed -n '2,/^set -euo/{/^set -euo/!p}' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

# install_missing [PACKAGE...]: installs those of PACKAGE (default: PACKAGES)
# that are not installed.
install_missing() {
  local missing=()
  local wanted=("$@")
  [ ${#wanted[@]} -eq 0 ] && wanted=("${PACKAGES[@]}")
  for p in "${wanted[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "vertex: installing ${missing[*]}" >&2
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "vertex: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  local log
  log="$(mktemp)"
  if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "vertex: installing ${missing[*]} failed" >&2
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
}

build() {
  install_missing
  if [ ! -f "$BUILD/build.ninja" ]; then
    cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" >/dev/null
  fi
  cmake --build "$BUILD" -j "$JOBS" "$@" | { grep -vE '^\[[0-9]+/[0-9]+\] ' || true; }
}

# wait_port FILE PID LOG WHAT: waits up to 30 s for the server PID to write
# its port FILE; if it does not (or exits first), prints its LOG and exits 1.
wait_port() {
  for _ in $(seq 1 300); do
    [ -s "$1" ] && return 0
    kill -0 "$2" 2>/dev/null || break
    sleep 0.1
  done
  cat "$3" >&2
  echo "vertex: $4 did not write its port file" >&2
  exit 1
}

# start_server NAME BINARY ARGS...: starts a server on a free loopback port
# (--listen 127.0.0.1:0 --port-file $tmp/NAME.port, log $tmp/NAME.log),
# waits for its port; sets SERVER_PID and SERVER_ADDR and adds the pid to
# $pids (which the caller's EXIT trap stops).
start_server() {
  local name="$1" binary="$2"
  shift 2
  "$binary" --listen 127.0.0.1:0 --port-file "$tmp/$name.port" "$@" 2>"$tmp/$name.log" &
  SERVER_PID=$!
  pids="$SERVER_PID $pids"
  wait_port "$tmp/$name.port" "$SERVER_PID" "$tmp/$name.log" "$name"
  SERVER_ADDR="127.0.0.1:$(cat "$tmp/$name.port")"
}

# swde_bench_store NAME SWDE_DIR [show]: for `bench NAME`, SWDE booksamillion (under SWDE_DIR,
# default ../shared/data/swde) learnt into $tmp/store by load_gen setup (its report printed
# with `show`); $tmp is a new temporary directory, removed on exit with every pid in $pids
# stopped. Exits 0 with a message when the pages or their ground truth are absent.
swde_bench_store() {
  swde="${2:-$ROOT/../shared/data/swde}"
  if [ ! -d "$swde/book/booksamillion" ] || [ ! -d "$swde/groundtruth/book" ]; then
    echo "vertex: bench $1: no SWDE booksamillion pages and ground truth under $swde; skipped" >&2
    exit 0
  fi
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/vertex_bench_$1.XXXXXX")"
  pids=""
  trap 'for p in $pids; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
  local out=/dev/null
  [ "${3:-}" = show ] && out=/dev/stdout
  "$BUILD/bench/load_gen" setup --store "$tmp/store" --pages "$swde/book/booksamillion" \
    --truth "$swde/groundtruth/book" --site booksamillion --schema "$ROOT/deploy/schemas/book.json" >"$out"
}

# stop_servers: SIGTERM to every pid in $pids, newest first; 1 when one did
# not stop cleanly.
stop_servers() {
  local p status=0
  for p in $pids; do
    kill -TERM "$p" 2>/dev/null || true
    if ! wait "$p"; then
      echo "vertex: process $p did not stop cleanly on SIGTERM" >&2
      status=1
    fi
  done
  pids=""
  return "$status"
}

# Starts vertexd on a free loopback port (and its HTTP face on another) over a new store, runs
# `vertexctl demo --server` against it with the given flags, then stops it
# with SIGTERM (it drains and closes the store) and removes the store.
run_demo() {
  local work pid port status=0
  work="$(mktemp -d "${TMPDIR:-/tmp}/vertex-quickstart.XXXXXX")"
  "$BUILD/services/vertexd/vertexd" --listen 127.0.0.1:0 --port-file "$work/port" --store "$work/store" \
    --http-port 0 --http-port-file "$work/http.port" 2>"$work/vertexd.log" &
  pid=$!
  for _ in $(seq 1 100); do
    [ -s "$work/port" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [ ! -s "$work/port" ]; then
    echo "vertex: vertexd did not start:" >&2
    cat "$work/vertexd.log" >&2
    kill "$pid" 2>/dev/null || true
    rm -rf "$work"
    exit 1
  fi
  port="$(cat "$work/port")"
  echo "vertexd is serving on 127.0.0.1:$port (store $work/store; log $work/vertexd.log)"
  for _ in $(seq 1 50); do [ -s "$work/http.port" ] && break; sleep 0.1; done
  [ -s "$work/http.port" ] &&
    echo "vertexd's HTTP/JSON API: http://127.0.0.1:$(cat "$work/http.port")/ (routes: /v1, metrics: /metrics)"
  "$BUILD/services/vertexctl/vertexctl" demo --server "127.0.0.1:$port" "$@" || status=$?
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  echo "vertexd stopped: $(tail -n 1 "$work/vertexd.log")"
  rm -rf "$work"
  return "$status"
}

FUZZ_BUILD="$BUILD-fuzz"
FUZZ_TARGETS=(page_parse extract schema_json annotations rule_import url_regex robots engine_rpc annotate feed_parse feed_match)

# The longest input each fuzz target is given (libFuzzer's -max_len): above
# its largest seed, small enough to keep executions fast.
fuzz_max_len() {
  case "$1" in
    extract|rule_import|engine_rpc) echo 131072 ;;
    page_parse|annotations|robots|feed_parse) echo 16384 ;;
    *) echo 4096 ;;
  esac
}

# libFuzzer's -timeout per input: learning under ASan (annotations: a rule
# from three pages; engine_rpc: Learn and Relearn over the demo site) takes
# seconds where parsing takes milliseconds.
fuzz_timeout() {
  case "$1" in
    engine_rpc) echo 180 ;;
    annotations) echo 60 ;;
    *) echo 25 ;;
  esac
}

# fuzz_run SECONDS TARGET...: builds the libFuzzer targets (clang, ASan +
# UBSan) in $FUZZ_BUILD and runs each TARGET for SECONDS on its committed
# seed corpus, new corpus entries and crash reproducers going to the work
# directory (never into the committed corpus). Prints per target:
# executions, corpus entries added, coverage, crashes. Fails when any target
# crashed (or timed out on an input, or could not run).
fuzz_run() {
  local seconds="$1"
  shift
  install_missing
  if [ ! -f "$FUZZ_BUILD/build.ninja" ]; then
    CC=clang CXX=clang++ cmake -S "$ROOT" -B "$FUZZ_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DVERTEX_FUZZ=ON >/dev/null
  fi
  cmake --build "$FUZZ_BUILD" -j "$JOBS" --target fuzzers | { grep -vE '^\[[0-9]+/[0-9]+\] ' || true; }
  local work="${VERTEX_FUZZ_WORK:-$FUZZ_BUILD/fuzz-work}"
  local failed=()
  local t
  for t in "$@"; do
    local dir="$work/$t" status=0
    mkdir -p "$dir/corpus" "$dir/crashes"
    "$FUZZ_BUILD/tests/fuzz/${t}_fuzzer" -max_total_time="$seconds" -max_len="$(fuzz_max_len "$t")" \
      -timeout="$(fuzz_timeout "$t")" -rss_limit_mb=2560 -print_final_stats=1 -artifact_prefix="$dir/crashes/" \
      "$dir/corpus" "$ROOT/tests/fuzz/corpus/$t" >"$dir/log" 2>&1 || status=$?
    local execs added cov crashes
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -n 1)"
    added="$(sed -n 's/^stat::new_units_added: *//p' "$dir/log" | tail -n 1)"
    cov="$(grep -oE 'cov: [0-9]+' "$dir/log" | tail -n 1 | cut -d' ' -f2)"
    crashes="$(find "$dir/crashes" -type f \( -name "crash-*" -o -name "timeout-*" -o -name "oom-*" -o -name "leak-*" \) | wc -l)"
    printf 'fuzz %-12s %ss: %s executions, %s new corpus entries, coverage %s, %s crash files (exit %s)\n' \
      "$t" "$seconds" "${execs:-?}" "${added:-?}" "${cov:-?}" "$crashes" "$status"
    if [ "$status" -ne 0 ]; then
      failed+=("$t")
      grep -E 'ERROR|invariant failed|Test unit written|SUMMARY' "$dir/log" | head -n 5 >&2 || true
      echo "vertex: fuzz $t failed; log $dir/log, reproducers in $dir/crashes/" >&2
    fi
  done
  if [ ${#failed[@]} -ne 0 ]; then
    echo "vertex: fuzz targets that failed: ${failed[*]}" >&2
    return 1
  fi
}

cmd="${1:-help}"
shift || true
case "$cmd" in
  demo)
    build --target vertexctl vertexd
    run_demo "$@"
    ;;
  test)
    build
    (cd "$BUILD" && ctest --output-on-failure -j "$JOBS" "$@")
    if [ "${VERTEX_FUZZ_SMOKE:-1}" != "0" ]; then
      fuzz_run 15 "${FUZZ_TARGETS[@]}"
    fi
    ;;
  fuzz)
    target="${1:-all}"
    seconds="${2:-60}"
    if [ "$target" = "all" ]; then
      fuzz_run "$seconds" "${FUZZ_TARGETS[@]}"
    elif [[ " ${FUZZ_TARGETS[*]} " == *" $target "* ]]; then
      fuzz_run "$seconds" "$target"
    else
      echo "vertex: unknown fuzz target '$target' (one of: all ${FUZZ_TARGETS[*]})" >&2
      exit 2
    fi
    ;;
  bench)
    if [ "${1:-}" = "soak" ]; then
      # bench soak [SECONDS] [SWDE_DIR]: learn SWDE booksamillion into a temporary store, serve it
      # with vertexd (the primary) and vertex-extraction (a replica: a RocksDB secondary following
      # vertexd's WatchStore), load both with load_gen soak for SECONDS and report their RSS and
      # open fds over time (exit 1 when they grew), then stop both.
      build --target load_gen vertexd vertex-extraction
      seconds="${2:-600}"
      swde_bench_store soak "${3:-}"
      start_server vertexd "$BUILD/services/vertexd/vertexd" --store "$tmp/store"
      primary="$SERVER_ADDR"
      vertexd_pid="$SERVER_PID"
      start_server replica "$BUILD/services/extraction/vertex-extraction" --store "$tmp/store" \
        --secondary-dir "$tmp/replica-secondary" --learning-server "$primary"
      status=0
      "$BUILD/bench/load_gen" soak --server "$primary,$SERVER_ADDR" \
        --site booksamillion --pages "$swde/book/booksamillion" --duration "$seconds" \
        --pid "vertexd=$vertexd_pid,replica=$SERVER_PID" || status=$?
      stop_servers || status=1
      exit "$status"
    fi
    if [ "${1:-}" = "scale" ]; then
      # bench scale [SWDE_DIR]: learn SWDE booksamillion into a temporary store, serve it with
      # vertexd (the primary) and 3 vertex-extraction replicas (RocksDB secondaries following
      # vertexd's WatchStore), then load_gen scale against the first N = 1, 2, 3 replicas through
      # one round-robin target (ipv4:A,B,C): pages/s in total and per replica, each replica's
      # share of the calls, CPU seconds and pages per CPU-second, the client's CPU.
      build --target load_gen vertexd vertex-extraction
      swde_bench_store scale "${2:-}"
      start_server vertexd "$BUILD/services/vertexd/vertexd" --store "$tmp/store"
      primary="$SERVER_ADDR"
      addrs=()
      replicas=()
      for i in 1 2 3; do
        start_server "replica$i" "$BUILD/services/extraction/vertex-extraction" --store "$tmp/store" \
          --secondary-dir "$tmp/replica$i-secondary" --learning-server "$primary"
        addrs+=("$SERVER_ADDR")
        replicas+=("$SERVER_ADDR=$SERVER_PID")
      done
      status=0
      for n in 1 2 3; do
        target="ipv4:$(IFS=,; echo "${addrs[*]:0:$n}")"
        store_flag=()
        [ "$n" = 1 ] && store_flag=(--store "$tmp/store")
        echo "== N = $n"
        "$BUILD/bench/load_gen" scale --target "$target" --replica "$(IFS=,; echo "${replicas[*]:0:$n}")" \
          --site booksamillion --pages "$swde/book/booksamillion" "${store_flag[@]}" || status=$?
      done
      # The name form a Kubernetes client uses (dns:///SERVICE:PORT), here on the first replica's port.
      echo "== dns:///localhost:${addrs[0]##*:} (the first replica, by name)"
      "$BUILD/bench/load_gen" scale --target "dns:///localhost:${addrs[0]##*:}" --replica "${replicas[0]}" \
        --site booksamillion --pages "$swde/book/booksamillion" --seconds 3 || status=$?
      stop_servers || status=1
      exit "$status"
    fi
    if [ "${1:-}" = "lxml" ]; then
      # bench lxml [SWDE_DIR]: bench/baselines/lxml_baseline.py (Debian's python3 and python3-lxml)
      # on SWDE booksamillion (when present) and on the demo shop's product pages (vertexctl
      # gen-demo into a temporary directory): CPU ms per page for lxml parse alone and parse + the
      # 5 hand-written XPaths, the XPaths scored against the ground truth.
      install_missing python3 python3-lxml
      build --target vertexctl
      swde="${2:-$ROOT/../shared/data/swde}"
      tmp="$(mktemp -d "${TMPDIR:-/tmp}/vertex_bench_lxml.XXXXXX")"
      trap 'rm -rf "$tmp"' EXIT
      status=0
      if [ -d "$swde/book/booksamillion" ] && [ -d "$swde/groundtruth/book" ]; then
        echo "== SWDE booksamillion"
        /usr/bin/python3 "$ROOT/bench/baselines/lxml_baseline.py" --site booksamillion \
          --pages "$swde/book/booksamillion" --truth "$swde/groundtruth/book" || status=$?
      else
        echo "vertex: bench lxml: no SWDE booksamillion pages and ground truth under $swde; skipped" >&2
      fi
      "$BUILD/services/vertexctl/vertexctl" gen-demo --out "$tmp/demo" >/dev/null
      echo "== demo product pages"
      /usr/bin/python3 "$ROOT/bench/baselines/lxml_baseline.py" --site vertexdemo \
        --pages "$tmp/demo" --truth "$tmp/demo/groundtruth/product" || status=$?
      exit "$status"
    fi
    if [ "${1:-}" = "memory" ]; then
      # bench memory: a store of 100 sites x 20 clusters of rules (memory_bench store), served by
      # vertexd and an extraction replica, and the same two over an empty store; every site called
      # (memory_bench drive): VmRSS and VmHWM of each, and their idle CPU; then the heap of the compiled
      # rules counted exactly (memory_bench rules) and per-page peak memory (memory_bench page).
      build --target memory_bench vertexd vertex-extraction
      tmp="$(mktemp -d "${TMPDIR:-/tmp}/vertex_bench_memory.XXXXXX")"
      pids=""
      trap 'for p in $pids; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
      "$BUILD/bench/memory_bench" store --store "$tmp/store" --sites 100 --clusters 20
      processes=""
      for kind in loaded empty; do
        store="$tmp/store"
        suffix=""
        if [ "$kind" = empty ]; then store="$tmp/empty-store"; suffix="_empty"; fi
        start_server "vertexd$suffix" "$BUILD/services/vertexd/vertexd" --store "$store"
        processes="$processes,vertexd$suffix=$SERVER_ADDR/$SERVER_PID"
        primary="$SERVER_ADDR"
        start_server "replica$suffix" "$BUILD/services/extraction/vertex-extraction" --store "$store" \
          --secondary-dir "$tmp/replica$suffix-secondary" --learning-server "$primary"
        processes="$processes,replica$suffix=$SERVER_ADDR/$SERVER_PID"
      done
      status=0
      "$BUILD/bench/memory_bench" drive --process "${processes#,}" --sites 100 || status=$?
      stop_servers || status=1
      "$BUILD/bench/memory_bench" rules --store "$tmp/store" || status=$?
      "$BUILD/bench/memory_bench" page || status=$?
      exit "$status"
    fi
    if [ "${1:-}" = "load" ]; then
      # bench load [SWDE_DIR] [LOAD_GEN SWEEP FLAGS]: learn SWDE booksamillion into a temporary store
      # (load_gen setup), copy it, serve the store with vertexd capped at one extraction per core
      # (--max-concurrent-extractions $(nproc), the rest queued FIFO) and the copy with a second vertexd
      # uncapped (--max-concurrent-extractions 0, the default), on free loopback ports, run load_gen sweep (peak stream
      # throughput vs the in-process 2-thread rate; unary p50/p99 at half of peak on both servers,
      # alternating, same rate; unary vs two streams at that rate: server CPU per page), stop both.
      # Flags after SWDE_DIR go to load_gen sweep (e.g. --rounds 4 --unary-workers 16).
      # VERTEX_ACCESS_LOG=text|json|off: both servers' --access-log (default: the servers' default).
      build --target load_gen vertexd
      swde_bench_store load "${2:-}" show
      cp -a "$tmp/store" "$tmp/store-uncapped"
      access_log=()
      [ -n "${VERTEX_ACCESS_LOG:-}" ] && access_log=(--access-log "$VERTEX_ACCESS_LOG")
      start_server capped "$BUILD/services/vertexd/vertexd" --store "$tmp/store" \
        --max-concurrent-extractions "$(nproc)" "${access_log[@]}"
      capped_addr="$SERVER_ADDR" capped_pid="$SERVER_PID"
      start_server uncapped "$BUILD/services/vertexd/vertexd" --store "$tmp/store-uncapped" \
        --max-concurrent-extractions 0 "${access_log[@]}"
      status=0
      "$BUILD/bench/load_gen" sweep --server "$capped_addr" --site booksamillion \
        --pages "$swde/book/booksamillion" --store "$tmp/store" --server-pid "$capped_pid" \
        --uncapped-server "$SERVER_ADDR" --uncapped-server-pid "$SERVER_PID" "${@:3}" || status=$?
      stop_servers || status=1
      grep -h "extraction admission" "$tmp/capped.log" "$tmp/uncapped.log" || true
      exit "$status"
    fi
    if [ "${1:-}" = "feed" ]; then
      # bench feed [--small] [--posts N] [--json]: WTM's Table 5 on 20 generated blogs, learnt from
      # their feeds with no editor, and P/R on held-out entry and archive pages (bench/feed_eval.cc).
      build --target feed_eval
      exec "$BUILD/bench/feed_eval" "${@:2}"
    fi
    if [ "${1:-}" = "http" ]; then
      # bench http [FLAGS]: Extract over HTTP (POST /v1/extract) against gRPC unary, same vertexd, same
      # page, alternating (http_latency; FLAGS e.g. --calls 1000 --access-log text).
      build --target http_latency vertexd
      exec "$BUILD/bench/http_latency" --vertexd "$BUILD/services/vertexd/vertexd" "${@:2}"
    fi
    build --target parse_bench extract_bench learn_bench monitor_bench xpath_export_bench hostile_bench annotate_bench amber_bench list_extract_bench list_finder_bench list_eval_bench link_discovery_bench list_model_store_bench learn_call_bench
    case "${1:-}" in
      parse|extract|learn|monitor|xpath_export|hostile|annotate|amber|list_extract|list_finder|list_eval|link_discovery|list_model_store|learn_call)
        which="$1"
        shift
        exec "$BUILD/bench/${which}_bench" "$@"
        ;;
    esac
    "$BUILD/bench/parse_bench" "$@"
    "$BUILD/bench/extract_bench"
    "$BUILD/bench/monitor_bench"
    "$BUILD/bench/xpath_export_bench"
    "$BUILD/bench/hostile_bench"
    "$BUILD/bench/amber_bench"
    "$BUILD/bench/annotate_bench"
    "$BUILD/bench/list_extract_bench"
    "$BUILD/bench/list_finder_bench"
    "$BUILD/bench/link_discovery_bench"
    exec "$BUILD/bench/learn_bench"
    ;;
  build)
    build
    ;;
  vertexctl)
    build --target vertexctl
    exec "$BUILD/services/vertexctl/vertexctl" "$@"
    ;;
  help|-h|--help)
    usage
    ;;
  *)
    echo "vertex: unknown command '$cmd'" >&2
    usage >&2
    exit 2
    ;;
esac

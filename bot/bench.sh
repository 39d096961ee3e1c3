#!/usr/bin/env bash
# Compares blockmate with the Node peers on one flying-squid 1.21.4 world and
# prints the ratios: start to spawned (vs a bare minecraft-protocol client),
# resident memory and idle CPU after 30 s (vs mineflayer).
#   bash bot/bench.sh                      # 5 join rounds, 30 s idle
#   BLOCKMATE_BENCH_ROUNDS=9 bash bot/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d testdata/peers/node_modules ] || (cd testdata/peers && npm ci --no-audit --no-fund --loglevel=error)
BLOCKMATE_BENCH=1 go test ./bot -run '^TestCompareWithPeers$' -count=1 -v -timeout 15m | grep -v -e '^=== ' -e '^--- PASS' -e '^PASS$' -e '^ok '

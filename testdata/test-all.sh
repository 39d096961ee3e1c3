#!/usr/bin/env bash
# Runs every blockmate test on a fresh machine. It installs what the tests
# need first: Go modules, the npm test peers (flying-squid, mineflayer,
# minecraft-protocol) and the system tools some tests drive (tmux for the
# console smoke test, iproute2 for the LAN namespace tests). Then: go vet,
# the race-enabled test suite (integration tests start their own servers on
# loopback), and a short run of every fuzz target.
#
#   bash testdata/test-all.sh            # everything
#   FUZZTIME=60s bash testdata/test-all.sh   # longer fuzzing
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-15s}

step() { printf '\n==> %s\n' "$*"; }

step "system packages"
missing=()
command -v tmux >/dev/null || missing+=(tmux)
command -v ip >/dev/null || missing+=(iproute2)
command -v node >/dev/null || missing+=(nodejs npm)
if ((${#missing[@]})); then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}"
fi
go version; node --version; tmux -V

step "Go modules"
go mod download

step "npm test peers (testdata/peers)"
(cd testdata/peers && npm ci --no-audit --no-fund --loglevel=error)

step "go.mod is tidy"
go mod tidy -diff

step "go vet"
go vet ./... ./testdata/bench

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './testdata/*'))
if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; exit 1; fi

step "go test -race ./..."
go test -race -count=1 -timeout 45m ./...

step "fuzz targets, $FUZZTIME each"
# go test -list prints each package's matching tests, then "ok <pkg> …".
go test -list '^Fuzz' ./... | awk '/^Fuzz/ {names = names " " $1} /^ok / {if (names != "") print $2 names; names = ""}' |
while read -r pkg names; do
  for name in $names; do
    echo "--- $pkg $name"
    go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg" 2>&1 | tail -n 3
  done
done

step "benchmark smoke run (one round, short idle; the real run is go run ./testdata/bench)"
go run ./testdata/bench -rounds 1 -idle 3s -results ""

step "all tests passed"

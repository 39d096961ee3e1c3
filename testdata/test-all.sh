#!/usr/bin/env bash
# Runs every blockmate test on a fresh machine. It installs what the tests
# need first: Go modules, the npm test peers (flying-squid, mineflayer,
# minecraft-protocol, and Node 22 itself from npm) and the system tools some
# tests drive (tmux for the console smoke test, iproute2 for the LAN
# namespace tests, avahi-daemon as an mDNS responder we did not write).
# Then: go vet, a build and vet for every release target, the race-enabled
# test suite (integration tests start their own servers on loopback or in
# network namespaces), and a short run of every fuzz target.
#
#   bash testdata/test-all.sh            # everything
#   FUZZTIME=60s bash testdata/test-all.sh   # longer fuzzing
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-5s}

step() { printf '\n==> %s\n' "$*"; }

step "system packages"
missing=()
command -v tmux >/dev/null || missing+=(tmux)
command -v ip >/dev/null || missing+=(iproute2)
command -v avahi-daemon >/dev/null || [ -x /usr/sbin/avahi-daemon ] || missing+=(avahi-daemon)
# Any node and npm will do, even Debian's older nodejs: they only run
# `npm ci`, which installs the Node 22 the peers declare (the "node" package
# pinned in testdata/peers), and the tests run the peers on that one.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if ((${#missing[@]})); then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  # A system avahi-daemon the package may start does not disturb the tests:
  # theirs runs in a network namespace with a private /run.
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
go version; echo "node on PATH (runs npm): $(node --version)"; tmux -V

step "Go modules"
go mod download

step "npm test peers (testdata/peers)"
(cd testdata/peers && npm ci --no-audit --no-fund --loglevel=error)
echo "node the peers run on: $(testdata/peers/node_modules/node/bin/node --version)"

step "go.mod is tidy"
go mod tidy -diff

step "go vet"
go vet ./...

step "build and vet for every release target"
# What .goreleaser.yaml ships: a change that breaks Windows or macOS fails
# here, on Linux. Each system is vetted once (vet type-checks every file
# its build tags select: the OS is what changes them) and built for the
# other architecture (which compiles the dependencies' per-architecture
# code); linux/amd64 is the machine's own build, vetted above.
for target in linux/arm64:build darwin/amd64:vet darwin/arm64:build windows/amd64:vet windows/arm64:build; do
  goos=${target%%/*}; rest=${target#*/}; goarch=${rest%%:*}; what=${rest#*:}
  echo "--- $goos/$goarch ($what)"
  if [ "$what" = vet ]; then
    GOOS=$goos GOARCH=$goarch go vet ./...
  else
    GOOS=$goos GOARCH=$goarch go build -o /dev/null ./...
  fi
done
if command -v goreleaser >/dev/null; then
  goreleaser check
else
  echo "(goreleaser is not installed, so .goreleaser.yaml is not checked: go install github.com/goreleaser/goreleaser/v2@v2.15.1)"
fi

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './testdata/*'))
if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; exit 1; fi

step "go test -race ./..."
# One parallel test per core (go test's default): the survival tests race
# the bot against the server's game ticks (a zombie's hits against the
# bot's cooldown), and four at a time on two cores starved the bot's tick.
go test -race -count=1 -timeout 45m ./...

step "fuzz targets, $FUZZTIME each"
# go test -list prints each package's matching tests, then "ok <pkg> …".
go test -list '^Fuzz' ./... | awk '/^Fuzz/ {names = names " " $1} /^ok / {if (names != "") print $2 names; names = ""}' |
while read -r pkg names; do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for name in $names; do
    echo "--- $pkg $name"
    out=$(mktemp)
    if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg" >"$out" 2>&1; then
      tail -n 3 "$out"
    elif [ -d "$dir/testdata/fuzz/$name" ] && [ -n "$(git -C "$dir" status --porcelain -- "testdata/fuzz/$name")" ]; then
      # A failing input was found and saved: that is a bug, not a flake.
      cat "$out"; rm -f "$out"; exit 1
    else
      # The fuzzer itself failed with no failing input saved (a worker
      # the loaded machine was slow to start): say so, and run it again.
      cat "$out"
      echo "(no failing input was saved; running $name again)"
      go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg" 2>&1 | tail -n 20
      [ "${PIPESTATUS[0]}" -eq 0 ] || { rm -f "$out"; exit 1; }
    fi
    rm -f "$out"
  done
done

step "benchmark smoke run (one round, short idle; the real run is go run ./bench)"
# Its figures are a smoke test's, not results: they are printed, and the
# committed RESULTS files are left as they are (-results -).
go run ./bench -rounds 1 -idle 3s -results -

step "all tests passed"

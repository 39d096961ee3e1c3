#!/usr/bin/env bash
# Renders the console screenshots for the README from a real terminal.
#
# The tmux smoke test saves each screen it reaches, with colours (tmux
# capture-pane -e), when BLOCKMATE_SCREENSHOTS names a directory; freeze
# draws each capture as SVG and rsvg-convert turns it into a PNG.
#
# Needs: tmux, node (the test peers), freeze (go install
# github.com/charmbracelet/freeze@v0.2.2), rsvg-convert (apt-get install
# librsvg2-bin) and the DejaVu fonts (fonts-dejavu-core).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && BLOCKMATE_SCREENSHOTS="$work" go test -count=1 -run "^TestTmuxSmoke$" ./ui)
freeze=${FREEZE:-$(go env GOPATH)/bin/freeze}
for capture in "$work"/*.ansi; do
	name=$(basename "$capture" .ansi)
	background="#1e1e2e"
	case "$name" in *light*) background="#fafafa" ;; esac
	"$freeze" "$capture" -o "$work/$name.svg" --window --background "$background" \
		--font.family "DejaVu Sans Mono" --font.size 14 --padding 20 --margin 0 >/dev/null
	rsvg-convert -w 1400 "$work/$name.svg" -o "$here/$name.png"
	echo "wrote $here/$name.png"
done

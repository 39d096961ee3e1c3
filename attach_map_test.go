//go:build linux

package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// mapArrows are the glyphs the console draws the bot with, one per
// direction it may face.
const mapArrows = "↑↗→↘↓↙←↖"

// mapPicture finds the map pane's picture on a captured console screen:
// the lines between the pane's top border and its legend, each the part
// after the last pane border on its line.
func mapPicture(screen string) []string {
	var pic []string
	in := false
	for _, l := range strings.Split(screen, "\n") {
		parts := strings.Split(l, "││")
		last := parts[len(parts)-1]
		switch {
		case strings.Contains(l, "─ Map"):
			in = true
		case in && strings.Contains(last, " bot"):
			return pic
		case in:
			pic = append(pic, strings.TrimSuffix(last, "│"))
		}
	}
	return nil
}

// findOnMap is the row and column (in cells) of the first of glyphs on
// the picture.
func findOnMap(pic []string, glyphs string) (row, col int, ok bool) {
	for r, l := range pic {
		for c, ch := range []rune(l) {
			if strings.ContainsRune(glyphs, ch) {
				return r, c, true
			}
		}
	}
	return 0, 0, false
}

// TestAttachedConsoleDrawsTheMap: a program drives `blockmate sidecar
// --watch-socket` into a flying-squid world; a console attached in tmux
// draws the map from the sidecar's mc_map: water the server's console
// placed two blocks east of the bot where it is, and the player cole, who
// joins and walks, under his letter at his offset from the bot's arrow.
// The console's map calls never show among the tool calls and never reach
// the program's stdout.
func TestAttachedConsoleDrawsTheMap(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	srv := peertest.StartServer(t, peertest.ServerOptions{Flavor: peertest.FlavorFlyingSquid, Version: "1.21.4", ViewDistance: 4})
	sock := filepath.Join(publicDir(t), "bm.sock")
	sc := sidecartest.Start(t, bin, "--watch-socket", sock)
	ctx, cancel := testctx.New(t)
	defer cancel()
	var joined struct {
		Joined   bool
		Position struct{ X, Y, Z float64 }
	}
	if err := sc.Call(ctx, "mc_join", map[string]any{"port": srv.Port, "username": "Theo"}).Decode(&joined); err != nil || !joined.Joined {
		t.Fatalf("mc_join: %v %+v\n%s", err, joined, sc.Stderr())
	}
	fx, fy, fz := int(math.Floor(joined.Position.X)), int(math.Floor(joined.Position.Y)), int(math.Floor(joined.Position.Z))
	// A pond two blocks wide, two and three blocks east of the bot, in the
	// ground on the bot's row and the one north of it.
	for dx := 2; dx <= 3; dx++ {
		for dz := -1; dz <= 0; dz++ {
			if err := srv.Command(fmt.Sprintf("setblock %d %d %d water", fx+dx, fy-1, fz+dz)); err != nil {
				t.Fatal(err)
			}
		}
	}

	console := startTmuxConsole(t, bin, "attach", sock)
	console.waitFor(ctx, "the map with the pond", "─ Map", "~~~~")
	pic := mapPicture(console.screen())
	row, col, ok := findOnMap(pic, mapArrows)
	if !ok {
		t.Fatalf("no arrow on the map:\n%s", console.screen())
	}
	if r := []rune(pic[row]); col+8 > len(r) || string(r[col+4:col+8]) != "~~~~" || string([]rune(pic[row-1])[col+4:col+8]) != "~~~~" || string(r[col+2:col+4]) == "~~" {
		t.Errorf("the pond is not two and three blocks east of the bot on its row and the one north:\n%s", strings.Join(pic, "\n"))
	}

	cole := peertest.StartPlayer(t, srv, "cole")
	wx, _, wz, err := cole.WalkTo(ctx, float64(fx-2)+0.5, float64(fz+2)+0.5)
	if err != nil {
		t.Fatal(err)
	}
	dx, dz := int(math.Floor(wx))-fx, int(math.Floor(wz))-fz
	console.waitFor(ctx, "cole in the map's legend", "A cole")
	for {
		pic = mapPicture(console.screen())
		ar, ac, aok := findOnMap(pic, mapArrows)
		pr, pc, pok := findOnMap(pic, "A")
		if aok && pok && pr-ar == dz && (pc-ac)/2 == dx {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("cole, who stopped %d east and %d south of the bot, is not drawn there:\n%s", dx, dz, console.screen())
		case <-time.After(100 * time.Millisecond):
		}
	}
	if scr := console.screen(); strings.Contains(scr, "mc_map") {
		t.Errorf("the console's map calls show among the tool calls:\n%s", scr)
	}
	for _, l := range sc.Lines() {
		if strings.Contains(l, "mc_map") || strings.Contains(l, "console-map") {
			t.Errorf("a console's map call reached the program's stdout: %s", l)
		}
	}
}

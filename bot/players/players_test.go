package players

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// offline is a session fed through Route, without a server: writes vanish.
func offline(t *testing.T, clock core.Clock, rec *fakeserver.Recorder) (*core.Session, *Players) {
	a, b := net.Pipe()
	go func() { _, _ = io.Copy(io.Discard, b) }()
	s := core.New(a, codec.For(769), core.Options{Clock: clock, Emit: rec.Emit, Username: "Theo", UUID: [16]byte{0xbb}})
	p := Attach(s)
	t.Cleanup(s.Leave)
	return s, p
}

func add(names ...string) []byte {
	var w wire.Writer
	w.Byte(0x01 | 0x04 | 0x10)
	w.VarInt(int32(len(names)))
	for i, name := range names {
		id := [16]byte{byte(100 + i)}
		if name == "Theo" {
			id = [16]byte{0xbb}
		}
		w.UUID(id)
		w.String(name)
		w.VarInt(0)
		w.VarInt(int32(i)) // game mode
		w.VarInt(int32(10 * i))
	}
	return w.Bytes()
}

// TestRoster: the first list after the spawn, within the roster window, is
// the roster (recorded, not announced); later adds and removals are
// announced; the bot is in the list once, as itself.
func TestRoster(t *testing.T) {
	clock := core.NewManualClock(time.Unix(1000, 0))
	rec := fakeserver.NewRecorder(t)
	s, p := offline(t, clock, rec)
	s.MarkSpawned()
	clock.Advance(RosterWindow)
	if err := s.Route(mcdata.ClientboundPlayPlayerInfo, add("Theo", "Steve", "alex")); err != nil {
		t.Fatal(err)
	}
	if n := rec.Count("mc_player_joined"); n != 0 {
		t.Errorf("the roster was announced: %v", rec.Names())
	}
	if err := s.Route(mcdata.ClientboundPlayPlayerInfo, add("Zed")); err != nil {
		t.Fatal(err)
	}
	if got := fakeserver.JSON(rec.Wait(t, "mc_player_joined")); got != `{"username":"Zed","untrusted":true}` {
		t.Errorf("mc_player_joined = %s", got)
	}
	var w wire.Writer
	w.VarInt(1)
	w.UUID([16]byte{101}) // Steve
	if err := s.Route(mcdata.ClientboundPlayPlayerRemove, w.Bytes()); err != nil {
		t.Fatal(err)
	}
	if got := fakeserver.JSON(rec.Wait(t, "mc_player_left")); got != `{"username":"Steve","untrusted":true}` {
		t.Errorf("mc_player_left = %s", got)
	}
	if got := strings.Join(p.Names(), ","); got != "alex,Theo,Zed" {
		t.Errorf("names %s", got)
	}
	if me, ok := p.Self(); !ok || me.Name != "Theo" || !me.HasGameMode {
		t.Errorf("self %+v %v", me, ok)
	}
	if name, ok := p.Find("ZED"); !ok || name != "Zed" {
		t.Errorf("find ZED: %q %v", name, ok)
	}
	if p.Count() != 3 {
		t.Errorf("count %d", p.Count())
	}
}

// TestNamesAreCleaned: a name is whatever the server sends (vanilla checks
// it, a modded or hostile server need not): it goes through the one
// sanitiser, to one line, before it is listed or announced, and the events
// say it is untrusted.
func TestNamesAreCleaned(t *testing.T) {
	clock := core.NewManualClock(time.Unix(1000, 0))
	rec := fakeserver.NewRecorder(t)
	s, p := offline(t, clock, rec)
	s.MarkSpawned()
	clock.Advance(RosterWindow + time.Millisecond)
	if err := s.Route(mcdata.ClientboundPlayPlayerInfo, add("\x1b]0;owned\x07Ev\u202eil\nAdmin\u200b")); err != nil {
		t.Fatal(err)
	}
	if got := fakeserver.JSON(rec.Wait(t, "mc_player_joined")); got != `{"username":"Evil Admin","untrusted":true}` {
		t.Errorf("mc_player_joined = %s", got)
	}
	if got := strings.Join(p.Names(), ","); got != "Evil Admin,Theo" {
		t.Errorf("names %q", got)
	}
	var w wire.Writer
	w.VarInt(1)
	w.UUID([16]byte{100})
	if err := s.Route(mcdata.ClientboundPlayPlayerRemove, w.Bytes()); err != nil {
		t.Fatal(err)
	}
	if got := fakeserver.JSON(rec.Wait(t, "mc_player_left")); got != `{"username":"Evil Admin","untrusted":true}` {
		t.Errorf("mc_player_left = %s", got)
	}
}

// TestLateFirstListIsAJoin: a first list after the roster window (a server
// that sends no roster) is a join and is announced.
func TestLateFirstListIsAJoin(t *testing.T) {
	clock := core.NewManualClock(time.Unix(1000, 0))
	rec := fakeserver.NewRecorder(t)
	s, p := offline(t, clock, rec)
	s.MarkSpawned()
	clock.Advance(RosterWindow + time.Millisecond)
	if err := s.Route(mcdata.ClientboundPlayPlayerInfo, add("Cole")); err != nil {
		t.Fatal(err)
	}
	rec.WaitCount(t, "mc_player_joined", 1)
	// The bot itself is added when the server does not list it, once.
	if got := strings.Join(p.Names(), ","); got != "Cole,Theo" {
		t.Errorf("names %s", got)
	}
	if _, listed := p.Self(); listed {
		t.Error("the bot is reported as listed by the server")
	}
}

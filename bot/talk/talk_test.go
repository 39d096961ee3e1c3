package talk

import (
	"bufio"
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	pk "github.com/Tnze/go-mc/net/packet"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// sent is what the bot wrote, decoded in play.
type sent struct {
	mu      sync.Mutex
	packets []pk.Packet
	arrived chan struct{}
}

func (s *sent) wait(t *testing.T, n int) []pk.Packet {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		s.mu.Lock()
		if len(s.packets) >= n {
			out := append([]pk.Packet(nil), s.packets...)
			s.mu.Unlock()
			return out
		}
		s.mu.Unlock()
		select {
		case <-s.arrived:
		case <-deadline:
			t.Fatalf("the bot sent %d packets, want %d", len(s.packets), n)
		}
	}
}

// offline is a session in play fed through Route, without a server; what
// it writes is decoded into sent.
func offline(t *testing.T, proto int32, rec *fakeserver.Recorder) (*core.Session, *Talk, *sent) {
	a, b := net.Pipe()
	out := &sent{arrived: make(chan struct{}, 1)}
	go func() {
		br := bufio.NewReader(b)
		for {
			var p pk.Packet
			if p.UnPack(br, -1) != nil {
				return
			}
			out.mu.Lock()
			out.packets = append(out.packets, p)
			out.mu.Unlock()
			select {
			case out.arrived <- struct{}{}:
			default:
			}
		}
	}()
	s := core.New(a, codec.For(proto), core.Options{Emit: rec.Emit, Username: "Theo", Clock: core.NewManualClock(time.Unix(1_700_000_000, 0))})
	reg := registry.Attach(s)
	tk := Attach(s, reg)
	// A registry as vanilla sends it to a client that knows the pack.
	var w wire.Writer
	w.String("minecraft:chat_type")
	w.VarInt(2)
	w.String("minecraft:chat")
	w.Bool(false)
	w.String("minecraft:msg_command_incoming")
	w.Bool(false)
	if err := s.Route(mcdata.ClientboundConfigRegistryData, w.Bytes()); err != nil {
		t.Fatal(err)
	}
	// Into play: the handshake packet stands in for the switch's
	// acknowledgement; the test reads past it.
	if err := s.SwitchAfter(mcdata.ServerboundHandshakeSetProtocol, nil, mcdata.StatePlay); err != nil {
		t.Fatal(err)
	}
	out.wait(t, 1)
	out.mu.Lock()
	out.packets = nil
	out.mu.Unlock()
	t.Cleanup(s.Leave)
	return s, tk, out
}

func system(text string) []byte {
	var w wire.Writer
	fakeserver.NBTString(&w, text)
	w.Bool(false)
	return w.Bytes()
}

func playerChat(signed bool, body string, chatType int32, sender string) []byte {
	var w wire.Writer
	w.UUID([16]byte{9})
	w.VarInt(0)
	w.Bool(signed)
	if signed {
		w.Raw(make([]byte, 256))
	}
	w.String(body)
	w.Int64(0)
	w.Int64(0)
	w.VarInt(0)
	w.Bool(false)
	w.VarInt(0)
	w.VarInt(chatType + 1)
	fakeserver.NBTString(&w, sender)
	w.Bool(false)
	return w.Bytes()
}

// TestChatIn: player chat, whispers by chat type, flying-squid's "<name>
// text" lines and system lines become log lines and marked events; the
// bot's own lines are logged but not announced; terminal controls are
// removed.
func TestChatIn(t *testing.T) {
	rec := fakeserver.NewRecorder(t)
	s, tk, _ := offline(t, 769, rec)
	for _, p := range []struct {
		kind    mcdata.Packet
		payload []byte
	}{
		{mcdata.ClientboundPlayPlayerChat, playerChat(false, "follow me", 0, "alex")},
		{mcdata.ClientboundPlayPlayerChat, playerChat(false, "psst\x1b[2J", 1, "alex")},
		{mcdata.ClientboundPlaySystemChat, system("<Theo> my own words")},
		{mcdata.ClientboundPlaySystemChat, system("<bob> hi")},
		{mcdata.ClientboundPlaySystemChat, system("Server restarts soon")},
	} {
		if err := s.Route(p.kind, p.payload); err != nil {
			t.Fatal(err)
		}
	}
	if got := fakeserver.JSON(rec.Wait(t, "mc_whisper")); !strings.HasPrefix(got, `{"username":"alex","message":"psst"`) || !strings.HasSuffix(got, `"untrusted":true}`) {
		t.Errorf("mc_whisper = %s", got)
	}
	if n := rec.Count("mc_player_chat"); n != 2 {
		t.Errorf("%d mc_player_chat events (alex and bob, not the bot itself): %v", n, rec.Names())
	}
	lines := tk.Lines(10)
	var got []string
	for _, l := range lines {
		got = append(got, l.Kind+":"+l.From+":"+l.Text)
	}
	want := "chat:alex:follow me|whisper:alex:psst|chat:Theo:my own words|chat:bob:hi|system::Server restarts soon"
	if strings.Join(got, "|") != want {
		t.Errorf("log %q, want %q", strings.Join(got, "|"), want)
	}
	if l := tk.Lines(2); len(l) != 2 || l[1].Text != "Server restarts soon" {
		t.Errorf("the last two lines: %+v", l)
	}
}

// TestSignedChatIsAcknowledged: every 64 signed messages the bot sends one
// acknowledgement of 64.
func TestSignedChatIsAcknowledged(t *testing.T) {
	s, _, out := offline(t, 768, fakeserver.NewRecorder(t))
	for i := 0; i < 64; i++ {
		if err := s.Route(mcdata.ClientboundPlayPlayerChat, playerChat(true, "hi", 0, "alex")); err != nil {
			t.Fatal(err)
		}
	}
	p := out.wait(t, 1)[0]
	id, _ := mcdata.For(768).ID(mcdata.ServerboundPlayMessageAcknowledgement)
	if r := wire.NewReader(p.Data); p.ID != id || r.VarInt() != 64 {
		t.Errorf("sent %#x %v, want the acknowledgement of 64", p.ID, p.Data)
	}
}

// TestSayIsOneBatch: the parts of one message go out in order, with
// timestamps that never go back.
func TestSayIsOneBatch(t *testing.T) {
	_, tk, out := offline(t, 767, fakeserver.NewRecorder(t))
	if err := tk.Say([]string{"one", "two", "three"}); err != nil {
		t.Fatal(err)
	}
	var last int64
	for i, p := range out.wait(t, 3) {
		r := wire.NewReader(p.Data)
		text, stamp := r.String(256), r.Int64()
		if text != []string{"one", "two", "three"}[i] || stamp < last {
			t.Errorf("part %d: %q at %d (after %d)", i, text, stamp, last)
		}
		last = stamp
	}
}

// TestCommandReplies: the reply is the system lines after the command; it
// ends at Max lines, or at once for a confirmed whisper, without waiting
// out its timers (they are long here on purpose).
func TestCommandReplies(t *testing.T) {
	s, tk, out := offline(t, 769, fakeserver.NewRecorder(t))
	long := ReplyWait{First: time.Minute, Quiet: time.Minute, Total: time.Minute, Max: 2}
	routed := make(chan struct{})
	go func() {
		defer close(routed)
		out.wait(t, 1)
		for _, line := range []string{"<alex> not a reply", "first", "second", "third"} {
			_ = s.Route(mcdata.ClientboundPlaySystemChat, system(line))
		}
	}()
	lines, err := tk.Command(context.Background(), "help", long)
	if err != nil || len(lines) != 2 || lines[0].Text != "first" || lines[1].Text != "second" {
		t.Fatalf("reply %+v, %v", lines, err)
	}
	<-routed
	go func() {
		out.wait(t, 2)
		var w wire.Writer
		fakeserver.NBTTranslate(&w, "commands.message.display.outgoing", "alex", "hi")
		w.Bool(false)
		_ = s.Route(mcdata.ClientboundPlaySystemChat, w.Bytes())
	}()
	reply, err := tk.Whisper(context.Background(), "alex", []string{"hi", "there"}, long)
	if err != nil || len(reply) != 1 || !reply[0].WhisperSent {
		t.Fatalf("whisper reply %+v, %v", reply, err)
	}
	cmds := out.wait(t, 3)
	var got []string
	for _, p := range cmds {
		got = append(got, wire.NewReader(p.Data).String(300))
	}
	if strings.Join(got, "|") != "help|msg alex hi|msg alex there" {
		t.Errorf("commands sent: %q", got)
	}
}

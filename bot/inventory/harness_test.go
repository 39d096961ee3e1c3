package inventory

import (
	"context"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/link"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// protocols are the versions the tests run at: every codec there is.
func protocols() []int32 { return codec.Defined() }

// world is a bot session in play against the scripted server, with the
// features a join needs and the inventory. The test drives both sides:
// srv sends and reads on the server's end of the connection.
type world struct {
	t     *testing.T
	srv   *fakeserver.Server
	s     *core.Session
	inv   *Inventory
	rec   *fakeserver.Recorder
	clock *core.ManualClock // nil: the real clock
}

// join starts a scripted server, joins it and returns once the bot has
// spawned. With manual, the session's ticks come only from w.tick.
func join(t *testing.T, proto int32, manual bool) *world {
	t.Helper()
	w := &world{t: t, rec: fakeserver.NewRecorder(t)}
	ready := make(chan *fakeserver.Server, 1)
	done := make(chan struct{})
	port := fakeserver.Start(t, proto, func(f *fakeserver.Server) {
		f.Login(-1)
		f.Configure()
		f.Play(42, 0.5, 64, 0.5)
		ready <- f
		<-done
	})
	t.Cleanup(func() { close(done) })
	opts := core.Options{Emit: w.rec.Emit, Username: "Theo", Log: fakeserver.Log()}
	if manual {
		w.clock = core.NewManualClock(time.Unix(1_700_000_000, 0))
		opts.Clock = w.clock
	}
	w.s = core.New(fakeserver.Dial(t, port), codec.For(proto), opts)
	reg := registry.Attach(w.s)
	l := link.Attach(w.s, reg, link.Options{Host: "127.0.0.1", Port: port})
	me := self.Attach(w.s, reg, self.Options{})
	// The body (bot/move) answers a position sync with the position; a
	// stand-in here, as the server waits for it.
	me.OnSync(func(sy self.Sync) []core.Out {
		return []core.Out{{Packet: mcdata.ServerboundPlayPositionLook, Build: func(wr *wire.Writer) {
			w.s.Codec.WriteMovement(wr, codec.Movement{X: sy.Position.X, Y: sy.Position.Y, Z: sy.Position.Z, Yaw: sy.Yaw, Pitch: sy.Pitch, OnGround: true})
		}}}
	})
	w.inv = Attach(w.s)
	if err := l.Login(); err != nil {
		t.Fatal(err)
	}
	w.s.Start()
	t.Cleanup(w.s.Leave)
	select {
	case <-w.s.Spawned():
	case <-w.s.Done():
		t.Fatalf("the session ended before the spawn: %v", w.s.End().Reason)
	case <-time.After(10 * time.Second):
		t.Fatal("no spawn")
	}
	w.srv = <-ready
	return w
}

// wait waits for the inventory to satisfy cond.
func (w *world) wait(what string, cond func(View) bool) View {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	v, err := w.inv.WaitFor(ctx, cond)
	if err != nil {
		w.t.Fatalf("waiting for %s: %v; the inventory is %s", what, err, dump(w.inv.View()))
	}
	return v
}

// next reads the bot's packets until one of the wanted kinds.
func (w *world) next(want ...mcdata.Packet) (mcdata.Packet, *wire.Reader) {
	w.t.Helper()
	for {
		p, r := w.srv.Next()
		if r == nil {
			w.t.Fatalf("the connection ended while waiting for %v", want)
		}
		for _, k := range want {
			if p == k {
				return p, r
			}
		}
	}
}

// click reads the bot's next window_click.
func (w *world) click() fakeserver.Click {
	w.t.Helper()
	_, r := w.next(mcdata.ServerboundPlayWindowClick)
	return w.srv.ReadClick(r)
}

// async runs f on its own goroutine and returns a channel with its result.
func async[T any](f func() (T, error)) chan result[T] {
	ch := make(chan result[T], 1)
	go func() {
		v, err := f()
		ch <- result[T]{v, err}
	}()
	return ch
}

type result[T any] struct {
	v   T
	err error
}

// get waits for an async result.
func get[T any](t *testing.T, ch chan result[T]) (T, error) {
	t.Helper()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not return")
	}
	var zero T
	return zero, nil
}

// items builds a window's contents from a map of slot to stack.
func items(n int, m map[int]fakeserver.Item) []fakeserver.Item {
	out := make([]fakeserver.Item, n)
	for i, it := range m {
		out[i] = it
	}
	return out
}

// dump renders the non-empty slots of a view, for failure messages.
func dump(v View) string {
	out := ""
	for i, s := range v.Slots {
		if !s.Empty() {
			out += " " + itoa(i) + ":" + itoa(int(s.Count)) + "×" + s.Name
		}
	}
	if !v.Cursor.Empty() {
		out += " cursor:" + itoa(int(v.Cursor.Count)) + "×" + v.Cursor.Name
	}
	if out == "" {
		return "empty"
	}
	return out
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// has reports whether window-0 slot s holds count of name.
func has(v View, s int, name string, count int32) bool {
	if count == 0 {
		return v.Slots[s].Empty()
	}
	return v.Slots[s].Name == name && v.Slots[s].Count == count
}

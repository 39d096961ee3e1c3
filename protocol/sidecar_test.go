package protocol

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// pipeSidecar runs Serve over in-memory pipes and collects what it writes.
type pipeSidecar struct {
	in      *io.PipeWriter
	lines   chan string
	done    chan error
	exited  chan struct{}
	cancel  context.CancelFunc
	mu      sync.Mutex
	after   []string // lines written after Serve returned
	served  bool
	onExit  chan struct{}
	written []string
}

func startPipeSidecar(t *testing.T, d *Dispatcher, opts SidecarOptions) *pipeSidecar {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	p := &pipeSidecar{in: inW, lines: make(chan string, 1<<18), done: make(chan error, 1), cancel: cancel, onExit: make(chan struct{})}
	opts.BeforeExit = func(context.Context) {
		// A bot leaving emits mc_disconnected here; it must not reach stdout.
		d.Events().Emit("mc_disconnected", "", map[string]string{"reason": "left"})
		close(p.onExit)
	}
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.written = append(p.written, sc.Text())
			if p.served {
				p.after = append(p.after, sc.Text())
			}
			p.mu.Unlock()
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	go func() {
		err := Serve(ctx, d, inR, outW, opts)
		p.mu.Lock()
		p.served = true
		p.mu.Unlock()
		// Anything still buffered would show up now.
		time.Sleep(20 * time.Millisecond)
		outW.Close()
		p.done <- err
	}()
	t.Cleanup(func() { cancel(); inW.Close() })
	return p
}

func (p *pipeSidecar) send(lines ...string) {
	for _, l := range lines {
		io.WriteString(p.in, l+"\n")
	}
}

func (p *pipeSidecar) response(t *testing.T) map[string]any {
	t.Helper()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				t.Fatal("stdout closed before the expected response")
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("stdout line is not JSON: %q", line)
			}
			if _, isEvent := m["type"]; isEvent {
				continue
			}
			return m
		case <-time.After(20 * time.Second):
			t.Fatal("no response")
		}
	}
}

func TestServeAnswersConcurrentlyAndSkipsBadLines(t *testing.T) {
	d := newTestDispatcher(t)
	p := startPipeSidecar(t, d, SidecarOptions{})
	p.send(
		`{"id":"slow","tool":"mc_wait","args":{"ms":300}}`,
		``,
		`this is not json`,
		`{"id":"","tool":"mc_status"}`,
		`{"id":"fast","tool":"mc_echo","args":{"text":"hi"}}`,
	)
	first, second := p.response(t), p.response(t)
	if first["id"] != "fast" || second["id"] != "slow" {
		t.Fatalf("a slow call held up a fast one: %v then %v", first, second)
	}
	p.in.Close()
	if err := <-p.done; err != nil {
		t.Fatal(err)
	}
}

func TestServeSkipsOversizedLineAndAnswersTheNext(t *testing.T) {
	d := newTestDispatcher(t)
	p := startPipeSidecar(t, d, SidecarOptions{MaxLine: 1024})
	go func() {
		p.send(`{"id":"big","tool":"mc_echo","args":{"text":"` + strings.Repeat("x", 5000) + `"}}`)
		p.send(`{"id":"after","tool":"mc_echo","args":{"text":"ok"}}`)
	}()
	// The big one is answered (its id is in its first bytes), not run.
	if r := p.response(t); r["id"] != "big" || r["ok"] != false || !strings.Contains(r["error"].(string), "over the 1024-byte limit, so it was not run") {
		t.Fatalf("%v", r)
	}
	if r := p.response(t); r["id"] != "after" || r["ok"] != true {
		t.Fatalf("%v", r)
	}
}

func TestServeDrainsCallsInFlightWhenStdinEnds(t *testing.T) {
	d := newTestDispatcher(t)
	p := startPipeSidecar(t, d, SidecarOptions{})
	p.send(`{"id":"w","tool":"mc_wait","args":{"ms":200}}`)
	p.in.Close()
	r := p.response(t)
	if r["id"] != "w" || r["ok"] != true {
		t.Fatalf("the call in flight did not finish: %v", r)
	}
	if err := <-p.done; err != nil {
		t.Fatal(err)
	}
	<-p.onExit
}

func TestServeCancelsAfterTheDrainTime(t *testing.T) {
	d := newTestDispatcher(t)
	p := startPipeSidecar(t, d, SidecarOptions{Drain: 50 * time.Millisecond})
	p.send(`{"id":"b","tool":"mc_block"}`)
	waitRunning(t, d, 1)
	p.in.Close()
	r := p.response(t)
	if r["ok"] != false || !strings.Contains(r["error"].(string), "because blockmate is shutting down") {
		t.Fatalf("%v", r)
	}
	<-p.done
}

func TestSignalCancelsEveryCallEachGetsAResponseAndNothingFollows(t *testing.T) {
	d := newTestDispatcher(t)
	p := startPipeSidecar(t, d, SidecarOptions{})
	p.send(`{"id":"b1","tool":"mc_block"}`, `{"id":"w1","tool":"mc_wait","args":{"ms":600000}}`, `{"id":"f","tool":"mc_follow_forever"}`)
	waitRunning(t, d, 3)
	p.cancel()
	got := map[any]bool{}
	for i := 0; i < 3; i++ {
		r := p.response(t)
		got[r["id"]] = true
	}
	if !got["b1"] || !got["w1"] || !got["f"] {
		t.Fatalf("responses %v", got)
	}
	if err := <-p.done; err != nil {
		t.Fatal(err)
	}
	<-p.onExit
	for range p.lines {
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.after) != 0 {
		t.Fatalf("written after the last response: %q", p.after)
	}
	if last := p.written[len(p.written)-1]; !strings.Contains(last, `"id":`) {
		t.Fatalf("the last line is not a response: %s", last)
	}
	if len(d.Running()) != 0 {
		t.Fatalf("background work survived shutdown: %v", d.Running())
	}
}

// TestEventsInterleaveAsWholeLines floods events while calls run: every
// line on stdout is whole, every call answers, and events reach stdout
// between the responses.
//
// The input ends only after an event has been read from stdout: once the
// last response is written nothing more may follow, so a run whose calls
// all finished before the emitter goroutine was first scheduled (one busy
// core) would otherwise legitimately show no event at all.
func TestEventsInterleaveAsWholeLines(t *testing.T) {
	d := newTestDispatcher(t)
	p := startPipeSidecar(t, d, SidecarOptions{})
	const calls = 200
	stopEmitting := make(chan struct{})
	emitted := make(chan struct{})
	go func() {
		defer close(emitted)
		for i := 0; ; i++ {
			select {
			case <-stopEmitting:
				if i >= 2000 {
					return
				}
			default:
			}
			d.Events().Emit("mc_player_chat", "", map[string]any{"username": "Eduard", "message": strings.Repeat("ä", i%300)})
		}
	}()
	sawEvent := make(chan struct{})
	go func() {
		for i := 0; i < calls; i++ {
			if i == calls/2 {
				<-sawEvent
			}
			p.send(`{"id":` + itoa(i) + `,"tool":"mc_echo","args":{"text":"` + strings.Repeat("y", i*10) + `"}}`)
		}
		p.in.Close()
	}()
	responses, events := 0, 0
	for line := range p.lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("a line was torn: %.80q", line)
		}
		if m["type"] == "event" {
			if events == 0 {
				close(sawEvent)
			}
			events++
		} else {
			responses++
		}
	}
	close(stopEmitting)
	<-emitted
	if responses != calls || events == 0 {
		t.Fatalf("%d responses, %d events", responses, events)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestNoEventAfterTheLastResponse floods events while the input ends with a
// call in flight: the last line on stdout must be that call's response.
func TestNoEventAfterTheLastResponse(t *testing.T) {
	for round := 0; round < 20; round++ {
		d := newTestDispatcher(t)
		// The drain cancels the call, so its response surely comes after
		// the end of input has been read.
		p := startPipeSidecar(t, d, SidecarOptions{Drain: 5 * time.Millisecond})
		stop := make(chan struct{})
		go func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
					d.Events().Emit("mc_player_chat", "", i)
				}
			}
		}()
		p.send(`{"id":"w","tool":"mc_block"}`)
		p.in.Close()
		<-p.done
		close(stop)
		var last string
		for line := range p.lines {
			last = line
		}
		if !strings.HasPrefix(last, `{"id":"w","ok":false`) {
			t.Fatalf("round %d: the last line is %q", round, last)
		}
	}
}

// TestShutdownIsBoundedWhenStdoutIsNotRead: a parent that stops reading
// stdout must not keep the sidecar alive after a signal.
func TestShutdownIsBoundedWhenStdoutIsNotRead(t *testing.T) {
	d := newTestDispatcher(t)
	inR, inW := io.Pipe()
	_, outW := io.Pipe() // nobody reads this
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, d, inR, outW, SidecarOptions{}) }()
	finished := make(chan struct{}, 1)
	d.Observe(func(ev CallEvent) {
		if ev.Phase == Finished {
			finished <- struct{}{}
		}
	})
	io.WriteString(inW, `{"id":"a","tool":"mc_echo","args":{"text":"x"}}`+"\n")
	<-finished // its response is now stuck on the unread pipe
	cancel()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return after a signal while stdout was blocked")
	}
}

// TestClosedStdoutEndsTheRun: when the parent closes the sidecar's stdout,
// calls in flight are cancelled and Serve returns, so the bot can leave.
func TestClosedStdoutEndsTheRun(t *testing.T) {
	d := newTestDispatcher(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), d, inR, outW, SidecarOptions{}) }()
	defer inW.Close()
	io.WriteString(inW, `{"id":"b","tool":"mc_block"}`+"\n")
	waitRunning(t, d, 1)
	outR.Close()
	io.WriteString(inW, `{"id":"a","tool":"mc_echo","args":{"text":"x"}}`+"\n")
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Serve kept running with its stdout closed")
	}
	if len(d.Running()) != 0 {
		t.Fatalf("calls survived: %v", d.Running())
	}
}

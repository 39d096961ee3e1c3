package mcp_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/blockmate/blockmate/mcp"
	"github.com/blockmate/blockmate/protocol"
)

// collected is mc_test_collect's result.
const collected = `{"collected":true,"item":"oak_log","dug":16}`

// sameValue reports whether two JSON texts hold the same value: the SDK's
// client hands structured content back as a map, whose keys lose their
// order.
func sameValue(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

// handTimers hands out timers and tickers the test fires itself: each one
// made is announced on made, so the test waits for it to exist, never on
// the wall clock.
type handTimers struct{ made chan chan time.Time }

func newHandTimers() *handTimers { return &handTimers{made: make(chan chan time.Time, 16)} }

func (h *handTimers) ticker(time.Duration) (<-chan time.Time, func()) {
	ch := make(chan time.Time)
	h.made <- ch
	return ch, func() {}
}

func (h *handTimers) After(d time.Duration) (<-chan time.Time, func()) {
	ch := make(chan time.Time, 1)
	h.made <- ch
	return ch, func() {}
}

func (h *handTimers) next(t *testing.T, ctx context.Context, what string) chan time.Time {
	t.Helper()
	select {
	case ch := <-h.made:
		return ch
	case <-ctx.Done():
		t.Fatalf("no %s was made", what)
	}
	return nil
}

// longFixture serves a catalog with mc_test_collect, a long tool that
// gathers 16 logs: it reports the first, then works until release is
// closed, as a collect between two logs does.
type longFixture struct {
	*fixture
	progressTicks *handTimers // the server's heartbeat tickers
	waits         *handTimers // the dispatcher's wait timers
	started       chan struct{}
	release       chan struct{}
}

func newLongFixture(t *testing.T) *longFixture {
	t.Helper()
	lf := &longFixture{progressTicks: newHandTimers(), waits: newHandTimers(), started: make(chan struct{}, 4), release: make(chan struct{})}
	lf.fixture = newFixtureWith(t, mcp.Options{Version: "test", Ticker: lf.progressTicks.ticker}, func(c *protocol.Catalog, d *protocol.Dispatcher) {
		d.SetClock(lf.waits)
		c.Add(protocol.Tool{Name: "mc_test_collect", Description: "Collects 16 logs.", Effect: protocol.Destructive, Long: true,
			Handler: func(ctx context.Context, _ protocol.Args) (any, error) {
				id, _ := protocol.CallID(ctx)
				d.Events().Emit("mc_task_progress", id, protocol.TaskProgress{Tool: "mc_test_collect", ID: id, Done: 1, Total: 16})
				lf.started <- struct{}{}
				select {
				case <-lf.release:
					return struct {
						Collected bool   `json:"collected"`
						Item      string `json:"item"`
						Dug       int    `json:"dug"`
					}{true, "oak_log", 16}, nil
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}})
	})
	return lf
}

func forEachLongSession(t *testing.T, run func(t *testing.T, ctx context.Context, lf *longFixture, cs *sdk.ClientSession, h *heard)) {
	for _, s := range sessions() {
		t.Run(s.name, func(t *testing.T) {
			ctx := testContext(t)
			lf := newLongFixture(t)
			h := newHeard()
			run(t, ctx, lf, s.start(t, ctx, lf.fixture, h), h)
		})
	}
}

// TestALongCallHearsProgressEveryIntervalBetweenSteps: a collect that
// carries a progress token and goes quiet after its first log still sends
// a notification on every tick of the heartbeat (every 4 s of the injected
// clock, under the 5 s promised), each value above the last, and then its
// answer.
func TestALongCallHearsProgressEveryIntervalBetweenSteps(t *testing.T) {
	if mcp.DefaultProgressEvery >= 5*time.Second {
		t.Fatalf("the heartbeat comes every %v; the promise is under 5 s", mcp.DefaultProgressEvery)
	}
	forEachLongSession(t, func(t *testing.T, ctx context.Context, lf *longFixture, cs *sdk.ClientSession, h *heard) {
		params := &sdk.CallToolParams{Name: "mc_test_collect", Arguments: map[string]any{}}
		params.SetProgressToken("logs")
		answer := make(chan *sdk.CallToolResult, 1)
		go func() {
			res, err := cs.CallTool(ctx, params)
			if err != nil {
				t.Errorf("mc_test_collect: %v", err)
			}
			answer <- res
		}()
		ticks := lf.progressTicks.next(t, ctx, "heartbeat ticker")
		<-lf.started
		h.waitFor(t, ctx, "the first log's progress", func(h *heard) bool { return len(h.progress) >= 1 }, nil)
		for i := 1; i <= 3; i++ {
			select {
			case ticks <- time.Time{}:
			case <-ctx.Done():
				t.Fatal("the heartbeat never took its tick")
			}
			h.waitFor(t, ctx, "a heartbeat", func(h *heard) bool { return len(h.progress) >= 1+i }, nil)
		}
		close(lf.release)
		res := <-answer
		if res == nil || res.IsError || !sameValue(structured(t, res), collected) {
			t.Fatalf("answer %+v", res)
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		if first := h.progress[0]; first.Progress != 1 || first.Total != 16 || first.Message != "mc_test_collect: 1 of 16" {
			t.Errorf("first progress %+v", first)
		}
		for i, p := range h.progress[1:4] {
			prev := h.progress[i]
			if p.ProgressToken != "logs" || p.Progress <= prev.Progress || p.Progress >= 2 || p.Total != 16 || !strings.Contains(p.Message, "still running after") || !strings.Contains(p.Message, "1 of 16 so far") {
				t.Errorf("heartbeat %d: %+v after %+v; want the same token, a value above the last and below the next log, and a message saying it still runs", i+1, p, prev)
			}
		}
	})
}

// TestALongCallPastItsWaitAnswersEarlyThenTaskDone: with wait, the collect
// answers running with its task id and progress so far once the wait runs
// out; it goes on, its end comes as mc_task_done (a log message in the
// 2025 era, the events resource in both) and mc_task_result returns the
// full result.
func TestALongCallPastItsWaitAnswersEarlyThenTaskDone(t *testing.T) {
	forEachLongSession(t, func(t *testing.T, ctx context.Context, lf *longFixture, cs *sdk.ClientSession, h *heard) {
		events, unsubscribe := lf.d.Events().Subscribe(64)
		defer unsubscribe()
		answer := make(chan *sdk.CallToolResult, 1)
		go func() {
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "mc_test_collect", Arguments: map[string]any{"wait": 50}})
			if err != nil {
				t.Errorf("mc_test_collect: %v", err)
			}
			answer <- res
		}()
		wait := lf.waits.next(t, ctx, "wait timer")
		<-lf.started
		wait <- time.Time{}
		res := <-answer
		if res == nil || res.IsError {
			t.Fatalf("early answer %+v", res)
		}
		var early struct {
			Running bool   `json:"running"`
			TaskID  string `json:"task_id"`
			SoFar   struct {
				Done, Total int
			} `json:"so_far"`
			NextStep string `json:"next_step"`
		}
		if err := json.Unmarshal([]byte(structured(t, res)), &early); err != nil || !early.Running || early.TaskID == "" || early.SoFar.Done != 1 || early.SoFar.Total != 16 || !strings.Contains(early.NextStep, "mc_task_done") {
			t.Fatalf("early answer %s", structured(t, res))
		}
		// mc_status's task list (the dispatcher's) shows it running.
		if r := lf.d.Running(); len(r) != 1 || r[0].ID != early.TaskID || !r[0].Background {
			t.Fatalf("running %+v", r)
		}

		close(lf.release)
	waitDone:
		for {
			select {
			case ev := <-events:
				if ev.Name != "mc_task_done" {
					continue
				}
				if want := `{"task_id":"` + early.TaskID + `","tool":"mc_test_collect","ok":true,"result":{"collected":true,"item":"oak_log","dug":16}}`; string(ev.Payload) != want {
					t.Fatalf("mc_task_done %s, want %s", ev.Payload, want)
				}
				break waitDone
			case <-ctx.Done():
				t.Fatal("no mc_task_done")
			}
		}
		if cs.InitializeResult().ProtocolVersion < "2026" {
			h.waitFor(t, ctx, "mc_task_done as a log message", func(h *heard) bool {
				for _, l := range h.logs {
					if data, _ := json.Marshal(l.Data); strings.Contains(string(data), `"name":"mc_task_done"`) {
						return l.Level == "notice"
					}
				}
				return false
			}, nil)
		}
		got, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "mc_task_result", Arguments: map[string]any{"task_id": early.TaskID}})
		if err != nil || got.IsError || !sameValue(structured(t, got), collected) {
			t.Fatalf("mc_task_result: %v %+v", err, got)
		}
	})
}

// TestTheServersDefaultWaitAppliesWhenTheCallSendsNone: --wait's default
// answers a long call early that did not send its own wait.
func TestTheServersDefaultWaitAppliesWhenTheCallSendsNone(t *testing.T) {
	ctx := testContext(t)
	waits := newHandTimers()
	started, release := make(chan struct{}, 1), make(chan struct{})
	defer close(release)
	f := newFixtureWith(t, mcp.Options{Version: "test", DefaultWait: 50 * time.Second}, func(c *protocol.Catalog, d *protocol.Dispatcher) {
		d.SetClock(waits)
		c.Add(protocol.Tool{Name: "mc_test_slow", Description: "Runs until released.", Effect: protocol.Write, Long: true,
			Handler: func(ctx context.Context, _ protocol.Args) (any, error) {
				started <- struct{}{}
				select {
				case <-release:
				case <-ctx.Done():
				}
				return nil, ctx.Err()
			}})
	})
	cs := connectPipes(t, ctx, f, eras[1], nil)
	answer := make(chan *sdk.CallToolResult, 1)
	go func() {
		res, _ := cs.CallTool(ctx, &sdk.CallToolParams{Name: "mc_test_slow", Arguments: map[string]any{}})
		answer <- res
	}()
	timer := waits.next(t, ctx, "wait timer")
	<-started
	timer <- time.Time{}
	if res := <-answer; res == nil || res.IsError || !strings.Contains(structured(t, res), `"running":true`) || !strings.Contains(structured(t, res), `"task_id":"task-1"`) {
		t.Fatalf("answer %+v", res)
	}
}

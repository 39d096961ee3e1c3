package peertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// SurvivalOptions configures StartSurvivalServer. Zero values pick the
// game's defaults.
type SurvivalOptions struct {
	Version string // game version: "1.21.1", "1.21.3" or "1.21.4" (the default)
	// TicksPerSecond is the plugin's game tick rate; 0 means 20, the
	// game's. A faster rate makes furnaces (200 ticks an item) quicker, and
	// makes digging more lenient, since the break time counts ticks.
	TicksPerSecond int
}

// SurvivalServer is a flying-squid server with the survival plugin
// (testdata/peers/survival): break times, crafting, furnaces, chests,
// eating and a zombie, as the game has them. Command runs console commands
// (e.g. "give alex oak_log 4", "setblock 3 4 5 stone", "summon zombie 3 4 5",
// "survival food alex 10 0"); Query reads the server's side.
type SurvivalServer struct {
	*Server

	mu      sync.Mutex
	next    int
	waiting map[string]chan survivalReply
	gone    error // set when the server's event stream ends
}

type survivalReply struct {
	OK    bool            `json:"ok"`
	Value json.RawMessage `json:"value"`
	Error string          `json:"error"`
}

// StartSurvivalServer starts a survival server and returns once it accepts
// logins. It is stopped in t.Cleanup.
func StartSurvivalServer(t testing.TB, opts SurvivalOptions) *SurvivalServer {
	t.Helper()
	if opts.Version == "" {
		opts.Version = "1.21.4"
	}
	type survivalConfig struct {
		TicksPerSecond int `json:"ticksPerSecond,omitempty"`
	}
	cfg := struct {
		Version      string         `json:"version"`
		MOTD         string         `json:"motd"`
		ViewDistance int            `json:"viewDistance"`
		Survival     survivalConfig `json:"survival"`
	}{opts.Version, "blockmate survival test server", 4, survivalConfig{opts.TicksPerSecond}}
	return startSurvival(t, "survival "+opts.Version, opts.Version, cfg)
}

// startSurvival starts server.js with a survival configuration.
func startSurvival(t testing.TB, name, version string, cfg any) *SurvivalServer {
	t.Helper()
	p := startNode(t, name, "server.js", cfg)
	ctx, cancel := context.WithTimeoutCause(context.Background(), startTimeout, errNotReady)
	defer cancel()
	ev, err := p.waitFor(ctx, "ready", nil)
	if err != nil {
		t.Fatalf("peertest: %s server did not start: %v", name, err)
	}
	s := &SurvivalServer{
		Server: &Server{Host: "127.0.0.1", Port: ev.Port, Version: version, Flavor: FlavorFlyingSquid, proc: p,
			log: newEventLog(name), survival: true},
		waiting: map[string]chan survivalReply{},
	}
	go s.follow()
	return s
}

// follow hands each query answer to the query waiting for it, and keeps
// every other event in the server's event log (WaitEvent, Events).
func (s *SurvivalServer) follow() {
	for ev := range s.proc.events {
		if ev.Event != "survival" {
			s.log.add(ev, nil)
			continue
		}
		var r survivalReply
		if err := json.Unmarshal([]byte(ev.Text), &r); err != nil {
			r = survivalReply{Error: "bad answer from the server: " + err.Error()}
		}
		s.mu.Lock()
		ch := s.waiting[ev.Message]
		delete(s.waiting, ev.Message)
		s.mu.Unlock()
		if ch != nil {
			ch <- r
		}
	}
	<-s.proc.done
	s.log.end(fmt.Errorf("the server exited (%v)", s.proc.err))
	s.mu.Lock()
	s.gone = fmt.Errorf("the survival server has exited (%v)", s.proc.err)
	for id, ch := range s.waiting {
		close(ch)
		delete(s.waiting, id)
	}
	s.mu.Unlock()
}

// Query asks the server about its state and decodes the answer into out.
// what is one of player, inventory, block, furnace, chest, entities, items
// or log (testdata/peers/survival/commands.js lists their arguments).
func (s *SurvivalServer) Query(ctx context.Context, out any, what string, args ...any) error {
	s.mu.Lock()
	if s.gone != nil {
		err := s.gone
		s.mu.Unlock()
		return err
	}
	s.next++
	id := "q" + strconv.Itoa(s.next)
	ch := make(chan survivalReply, 1)
	s.waiting[id] = ch
	s.mu.Unlock()

	words := []string{"survival", "query", id, what}
	for _, a := range args {
		words = append(words, fmt.Sprint(a))
	}
	if err := s.Command(strings.Join(words, " ")); err != nil {
		s.forget(id)
		return fmt.Errorf("survival query %s: %w", what, err)
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return fmt.Errorf("survival query %s: the server exited before answering", what)
		}
		if !r.OK {
			return fmt.Errorf("survival query %s %v: %s", what, args, r.Error)
		}
		if out == nil {
			return nil
		}
		if err := json.Unmarshal(r.Value, out); err != nil {
			return fmt.Errorf("survival query %s: decoding %s: %w", what, r.Value, err)
		}
		return nil
	case <-ctx.Done():
		s.forget(id)
		return fmt.Errorf("survival query %s: %w", what, context.Cause(ctx))
	}
}

func (s *SurvivalServer) forget(id string) {
	s.mu.Lock()
	delete(s.waiting, id)
	s.mu.Unlock()
}

// Survivor is a mineflayer player driven by testdata/peers/survival/driver.js:
// it digs, crafts, smelts, opens chests, eats, attacks and tosses items with
// mineflayer's own APIs.
type Survivor struct {
	Username string

	proc *Peer

	mu      sync.Mutex
	next    int
	waiting map[string]chan driverReply
	ended   error
}

type driverReply struct {
	ok     bool
	text   string
	reason string
}

// ErrSurvivorFailed is wrapped by the error of a command mineflayer could
// not carry out.
var ErrSurvivorFailed = errors.New("mineflayer failed")

// StartSurvivor starts a mineflayer driver called username in srv and
// returns once it has spawned. It is stopped in t.Cleanup.
func StartSurvivor(t testing.TB, srv *Server, username string) *Survivor {
	t.Helper()
	cfg := struct {
		Host     string `json:"host"`
		Port     int    `json:"port"`
		Username string `json:"username"`
		Version  string `json:"version"`
	}{srv.Host, srv.Port, username, srv.Version}
	s := &Survivor{Username: username, waiting: map[string]chan driverReply{}}
	s.proc = startNode(t, "survivor "+username, "survival/driver.js", cfg)
	ctx, cancel := context.WithTimeoutCause(context.Background(), startTimeout, errNotReady)
	defer cancel()
	if _, err := s.proc.waitFor(ctx, "spawn", nil); err != nil {
		t.Fatalf("peertest: survivor %s did not spawn in %s: %v", username, srv.Addr(), err)
	}
	go s.follow()
	return s
}

func (s *Survivor) follow() {
	for ev := range s.proc.events {
		var r driverReply
		switch ev.Event {
		case "done":
			r = driverReply{ok: true, text: ev.Text}
		case "failed":
			r = driverReply{reason: ev.Reason}
		case "kicked", "end":
			s.mu.Lock()
			if s.ended == nil {
				s.ended = fmt.Errorf("%w: %s: %s", ErrPlayerGone, ev.Event, ev.Reason)
			}
			s.mu.Unlock()
			continue
		default:
			continue
		}
		s.mu.Lock()
		ch := s.waiting[ev.Message]
		delete(s.waiting, ev.Message)
		s.mu.Unlock()
		if ch != nil {
			ch <- r
		}
	}
	<-s.proc.done
	s.mu.Lock()
	if s.ended == nil {
		s.ended = fmt.Errorf("%w: its process exited (%v)", ErrPlayerGone, s.proc.err)
	}
	for id, ch := range s.waiting {
		close(ch)
		delete(s.waiting, id)
	}
	s.mu.Unlock()
}

// Do sends one driver command (cmd names it, the other fields are its
// arguments), waits for mineflayer to finish it, and decodes the result
// into out (may be nil).
func (s *Survivor) Do(ctx context.Context, out any, cmd map[string]any) error {
	s.mu.Lock()
	if s.ended != nil {
		err := s.ended
		s.mu.Unlock()
		return err
	}
	s.next++
	id := "c" + strconv.Itoa(s.next)
	ch := make(chan driverReply, 1)
	s.waiting[id] = ch
	s.mu.Unlock()

	line := map[string]any{"id": id}
	for k, v := range cmd {
		line[k] = v
	}
	if err := s.proc.Send(line); err != nil {
		s.forget(id)
		return fmt.Errorf("survivor %s %v: %w", s.Username, cmd["cmd"], err)
	}
	select {
	case r, ok := <-ch:
		if !ok {
			s.mu.Lock()
			err := s.ended
			s.mu.Unlock()
			return fmt.Errorf("survivor %s %v: %w", s.Username, cmd["cmd"], err)
		}
		if !r.ok {
			return fmt.Errorf("survivor %s %v: %w: %s", s.Username, cmd["cmd"], ErrSurvivorFailed, r.reason)
		}
		if out == nil {
			return nil
		}
		if err := json.Unmarshal([]byte(r.text), out); err != nil {
			return fmt.Errorf("survivor %s %v: decoding %s: %w", s.Username, cmd["cmd"], r.text, err)
		}
		return nil
	case <-ctx.Done():
		s.forget(id)
		return fmt.Errorf("survivor %s %v: %w", s.Username, cmd["cmd"], context.Cause(ctx))
	}
}

func (s *Survivor) forget(id string) {
	s.mu.Lock()
	delete(s.waiting, id)
	s.mu.Unlock()
}

// Log returns what the driver has printed.
func (s *Survivor) Log() string { return s.proc.Log() }

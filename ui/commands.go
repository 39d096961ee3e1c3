package ui

// The console's commands: what it asks of the dispatcher (a call, the
// status, discovery) and how their answers and event batches change the
// model.

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/protocol"
)

// sayFinished adds the bot's own chat line to the events when c is a
// successful mc_say or mc_whisper: the bot sends no event for what it says
// itself, and a conversation shown one-sided reads as the bot ignoring
// everyone.
func (m *Model) sayFinished(c *call) {
	if c == nil || !c.Response.OK || (c.Tool != "mc_say" && c.Tool != "mc_whisper") {
		return
	}
	var args struct {
		Message  string `json:"message"`
		Username string `json:"username"`
	}
	raw, _ := protocol.Marshal(c.Args)
	if json.Unmarshal(raw, &args) != nil || args.Message == "" {
		return
	}
	said := ownChat{Username: orDefault(m.status.status.Username, m.opts.Username), Message: args.Message, Call: c.Key, Origin: c.Origin}
	if c.Tool == "mc_whisper" {
		said.To = args.Username
	}
	payload, _ := protocol.Marshal(said)
	at := m.now()
	if !c.Started.IsZero() {
		at = c.Started.Add(c.Duration)
	}
	m.events.add([]protocol.Event{{Name: ownChatEvent, Payload: payload, Time: at}}, 0)
}

// applyDiscovery lists the worlds an mc_discover_lan found, and passes on
// a failure of discovery itself.
func (m *Model) applyDiscovery(d discoverMsg) {
	m.worlds.setDiscovery(d.Found, d.Reason)
	for _, w := range d.Worlds {
		raw, _ := protocol.Marshal(w)
		m.worlds.applyEvent("mc_lan_world_found", raw)
		if len(m.announced) < 256 {
			m.announced[w.addr()] = true
		}
	}
}

// discoveryResult reads an mc_discover_lan result.
func discoveryResult(raw json.RawMessage) discoverMsg {
	var out struct {
		Found  int     `json:"found"`
		Worlds []world `json:"worlds"`
		Reason string  `json:"reason"`
	}
	_ = json.Unmarshal(raw, &out)
	return discoverMsg{Found: out.Found, Reason: out.Reason, Worlds: out.Worlds}
}

// replay shows what happened before the console opened, in the order it
// happened: events and finished calls interleaved by time, so the bot's
// own lines (from its mc_say calls) sit among the chat they answered.
func (m *Model) replay(events []protocol.Event, calls []protocol.CallEvent) {
	for len(events) > 0 || len(calls) > 0 {
		if len(calls) == 0 || (len(events) > 0 && !events[0].Time.After(calls[0].Started.Add(calls[0].Duration))) {
			m.applyBatch(batchMsg{Events: events[:1]})
			events = events[1:]
			continue
		}
		m.applyBatch(batchMsg{Calls: calls[:1]})
		calls = calls[1:]
	}
}

// applyBatch hands a pump batch to the panes that own its data.
func (m *Model) applyBatch(b batchMsg) tea.Cmd {
	var cmds []tea.Cmd
	shown := b.Events[:0:0]
	for _, e := range b.Events {
		if e.Name == protocol.CallEventsDropped {
			var lost struct {
				Count int `json:"count"`
			}
			if json.Unmarshal(e.Payload, &lost) == nil && lost.Count > 0 {
				m.timeline.dropped += lost.Count
			}
		}
		if e.Name == "mc_lan_world_found" || e.Name == "mc_lan_world_lost" {
			m.worlds.applyEvent(e.Name, e.Payload)
			// The watcher says found again whenever a world's status
			// changes; the stream tells of a world once, when it appears.
			addr, ok := worldAddr(e.Payload)
			if ok && e.Name == "mc_lan_world_found" {
				if m.announced[addr] {
					continue
				}
				if len(m.announced) < 256 {
					m.announced[addr] = true
				}
			}
			if ok && e.Name == "mc_lan_world_lost" {
				delete(m.announced, addr)
			}
		}
		if e.Name == "mc_task_progress" {
			if m.status.progress == nil {
				m.status.progress = progressBook{}
				m.timeline.progress = m.status.progress
			}
			m.status.progress.note(e.Payload)
		}
		shown = append(shown, e)
	}
	m.events.add(shown, b.Dropped)
	// Calls after events: a line the bot said goes into the events after
	// what came with it in the same frame.
	for _, ev := range b.Calls {
		switch ev.Phase {
		case protocol.Started:
			cmds = append(cmds, m.timeline.observeStart(ev))
		case protocol.Finished:
			delete(m.status.progress, idText(ev.ID))
			m.sayFinished(m.timeline.observeFinish(ev))
			// Worlds found by a discovery someone else asked for (the
			// program driving an attached blockmate, a console's typed
			// mc_discover_lan) are worlds this console can show too.
			if ev.Tool == "mc_discover_lan" && ev.Response.OK {
				m.applyDiscovery(discoveryResult(ev.Response.Result))
			}
		}
	}
	m.timeline.dropped += b.DroppedCalls
	return tea.Batch(cmds...)
}

// submit gives a request an id if it has none, shows it in the timeline as
// running, and returns the command that runs it through the dispatcher. A
// join without a username gets the console's (--username, the settings
// file, or the default).
func (m *Model) submit(req protocol.Request) tea.Cmd {
	if req.Tool == "mc_join" {
		if _, given := req.Args["username"]; !given {
			if t, ok := m.backend.Catalog().Lookup("mc_join"); ok {
				if _, takes := t.Args.Lookup("username"); takes {
					args := make(map[string]json.RawMessage, len(req.Args)+1)
					for k, v := range req.Args {
						args[k] = v
					}
					args["username"] = json.RawMessage(strconv.Quote(m.opts.Username))
					req.Args = args
				}
			}
		}
	}
	if len(req.ID) == 0 {
		for {
			m.nextID++
			id := m.opts.IDPrefix + "c" + strconv.Itoa(m.nextID)
			if m.timeline.find(id) == nil {
				req.ID = json.RawMessage(strconv.Quote(id))
				break
			}
		}
	}
	// A call sent is a call whose result the person wants to see: the help
	// and any details close, and the timeline follows again (startOwn).
	m.showHelp = false
	m.events.detail.open = false
	spin := m.timeline.startOwn(req, m.now())
	d, ctx, k := m.backend, m.ctx, idText(req.ID)
	run := func() tea.Msg {
		start := time.Now()
		resp := d.Call(protocol.WithOrigin(ctx, protocol.OriginConsole), req)
		return callDoneMsg{Key: k, Response: resp, Duration: time.Since(start)}
	}
	return tea.Batch(spin, run)
}

// join calls mc_join for a world; submit adds the username.
func (m *Model) join(host string, port int) tea.Cmd {
	args := map[string]json.RawMessage{"port": json.RawMessage(strconv.Itoa(port))}
	if host != "" {
		args["host"] = json.RawMessage(strconv.Quote(host))
	}
	return m.submit(protocol.Request{Tool: "mc_join", Args: args})
}

func (m Model) statusCmd() tea.Cmd {
	d, ctx, id := m.backend, m.ctx, m.internalID("console-status")
	return func() tea.Msg {
		resp := d.Call(protocol.WithOrigin(ctx, protocol.OriginInternal),
			protocol.Request{ID: id, Tool: "mc_status"})
		if !resp.OK {
			return statusMsg{Err: resp.Error}
		}
		var st api.Status
		if err := json.Unmarshal(resp.Result, &st); err != nil {
			return statusMsg{Err: "mc_status answered in a shape the console does not read: " + err.Error()}
		}
		return statusMsg{Status: st}
	}
}

// discoverCmd asks mc_discover_lan once, for worlds already announced and
// for its advice when there are none. Worlds found later arrive as events.
func (m Model) discoverCmd() tea.Cmd {
	d, ctx, id := m.backend, m.ctx, m.internalID("console-discover")
	if _, ok := d.Catalog().Lookup("mc_discover_lan"); !ok {
		return nil
	}
	return func() tea.Msg {
		resp := d.Call(protocol.WithOrigin(ctx, protocol.OriginInternal),
			protocol.Request{ID: id, Tool: "mc_discover_lan"})
		if !resp.OK {
			return discoverMsg{}
		}
		return discoveryResult(resp.Result)
	}
}

// internalID is the id of a call the console makes for its own display.
func (m Model) internalID(name string) json.RawMessage {
	return json.RawMessage(strconv.Quote(m.opts.IDPrefix + name))
}

// quit cancels what runs, leaves the world (mc_leave, then the wiring's
// Leave) and exits. An attached console only detaches: what runs in the
// blockmate it watched goes on as if it had never looked.
func (m Model) quit() (tea.Model, tea.Cmd) {
	m.quitting = true
	if m.opts.Attached != "" {
		return m, func() tea.Msg { return leftMsg{} }
	}
	d, b, ctx, leave, connected := m.opts.Dispatcher, m.backend, m.ctx, m.opts.Leave, m.connected
	id := m.internalID("console-leave")
	return m, func() tea.Msg {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if d != nil {
			d.Stop("", protocol.ErrShutdown)
		}
		if _, ok := b.Catalog().Lookup("mc_leave"); ok && connected {
			b.Call(protocol.WithOrigin(lctx, protocol.OriginInternal), protocol.Request{ID: id, Tool: "mc_leave"})
		}
		if leave != nil {
			leave(lctx)
		}
		return leftMsg{}
	}
}

// Quitting reports whether the console is leaving.
func (m Model) Quitting() bool { return m.quitting }

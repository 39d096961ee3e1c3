package protocol

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Event is an unsolicited push: {"type":"event","name":…,"payload":{…}}.
type Event struct {
	Name    string
	Payload json.RawMessage
	// Time is when the event was emitted; transports that show time use it,
	// the wire does not carry it.
	Time time.Time
}

// MarshalJSON writes the event in the wire's key order.
func (e Event) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.Grow(40 + len(e.Name) + len(e.Payload))
	b.WriteString(`{"type":"event","name":`)
	b.Write(quote(e.Name))
	b.WriteString(`,"payload":`)
	if len(e.Payload) == 0 {
		b.WriteString("{}")
	} else {
		b.Write(e.Payload)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Bus debounces events per key and fans them out to subscribers.
//
// Debounce is per key (the event name, or name + sub-key such as the
// attacker type) with a window per event name, taken from the event catalog.
// The first event of a key goes out at once; further ones inside the window
// are held, and when the window closes the latest held one goes out. For
// snapshot events (a state such as health and attacker) it goes out only if
// it differs from the last one sent. So a zombie fight gives one "hurt" now
// and one with the final health later, not thirty; events of a group (join
// and leave) share a key, so the last change wins.
//
// Subscribers never block emitters: each has a bounded queue, and when it is
// full the event is dropped for that subscriber and counted.
type Bus struct {
	log    *slog.Logger
	policy func(name string) policy
	now    func() time.Time

	mu   sync.Mutex
	keys map[string]*debounced
	subs map[int]*subscriber
	next int
	// taps hear every event as it is emitted, before debounce: the
	// dispatcher's task layer keeps each call's latest progress from them,
	// which a debounced subscriber would hear a window late.
	taps []func(Event)
}

// Tap registers fn to hear every event as it is emitted, before debounce,
// on the emitting goroutine: fn must be quick and must not block or emit.
func (b *Bus) Tap(fn func(Event)) {
	b.mu.Lock()
	b.taps = append(b.taps, fn)
	b.mu.Unlock()
}

type debounced struct {
	lastName string
	lastSent json.RawMessage
	until    time.Time
	pending  *Event
	timer    *time.Timer
}

type subscriber struct {
	ch      chan Event
	dropped atomic.Int64 // all drops, for the log
	unsaid  int64        // drops not yet announced; guarded by Bus.mu
	retry   *time.Timer  // announces the drops if no event comes; guarded by Bus.mu
}

// NewBus returns a bus whose debounce windows come from the event catalog.
// log may be nil.
func NewBus(log *slog.Logger) *Bus {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Bus{log: log, policy: eventPolicy, now: time.Now, keys: map[string]*debounced{}, subs: map[int]*subscriber{}}
}

// Subscribe returns a channel of events with room for buffer of them, and a
// cancel func that closes it.
func (b *Bus) Subscribe(buffer int) (<-chan Event, func()) {
	if buffer < 1 {
		buffer = 1
	}
	s := &subscriber{ch: make(chan Event, buffer)}
	b.mu.Lock()
	id := b.next
	b.next++
	b.subs[id] = s
	b.mu.Unlock()
	var once sync.Once
	return s.ch, func() {
		once.Do(func() {
			b.mu.Lock()
			delete(b.subs, id)
			b.mu.Unlock()
			close(s.ch)
		})
	}
}

// Emit publishes an event. subKey refines the debounce key ("" for none);
// payload is marshalled now, so callers may reuse their value. Emit never
// blocks on a slow subscriber.
func (b *Bus) Emit(name, subKey string, payload any) {
	raw, err := Marshal(payload)
	if err != nil {
		b.log.Error("event payload does not marshal", "event", name, "err", err)
		return
	}
	ev := Event{Name: name, Payload: raw, Time: b.now()}
	b.mu.Lock()
	taps := b.taps
	b.mu.Unlock()
	for _, fn := range taps {
		fn(ev)
	}
	p := b.policy(name)
	if p.window <= 0 {
		b.publish(ev)
		return
	}
	key := name
	if p.group != "" {
		key = p.group
	}
	if subKey != "" {
		key += "\x00" + subKey
	}
	b.mu.Lock()
	k := b.keys[key]
	if k == nil {
		if len(b.keys) >= maxDebounceKeys {
			b.prune(ev.Time)
		}
		k = &debounced{}
		b.keys[key] = k
	}
	if ev.Time.Before(k.until) {
		k.pending = &ev
		if k.timer == nil {
			k.timer = time.AfterFunc(k.until.Sub(ev.Time), func() { b.flush(key) })
		}
		b.mu.Unlock()
		return
	}
	k.lastName, k.lastSent, k.until = name, raw, ev.Time.Add(p.window)
	b.mu.Unlock()
	b.publish(ev)
}

// maxDebounceKeys bounds the debounce table: sub-keys come from the game
// (player names, mob types), so a hostile server could otherwise grow it
// without end.
const maxDebounceKeys = 4096

// prune forgets keys whose window has closed with nothing held; if every
// key is still busy it forgets the oldest half, which at worst lets one
// duplicate through. Called with b.mu held.
func (b *Bus) prune(now time.Time) {
	for key, k := range b.keys {
		if k.pending == nil && !now.Before(k.until) {
			delete(b.keys, key)
		}
	}
	for key, k := range b.keys {
		if len(b.keys) < maxDebounceKeys/2 {
			break
		}
		if k.pending == nil {
			delete(b.keys, key)
		}
	}
}

// flush sends the latest event held for key when its window closes, unless
// it says nothing new.
func (b *Bus) flush(key string) {
	b.mu.Lock()
	k := b.keys[key]
	if k == nil || k.pending == nil {
		if k != nil {
			k.timer = nil
		}
		b.mu.Unlock()
		return
	}
	ev := *k.pending
	k.pending, k.timer = nil, nil
	p := b.policy(ev.Name)
	if p.snapshot && ev.Name == k.lastName && bytes.Equal(ev.Payload, k.lastSent) {
		b.mu.Unlock()
		return
	}
	ev.Time = b.now()
	k.lastName, k.lastSent, k.until = ev.Name, ev.Payload, ev.Time.Add(p.window)
	b.mu.Unlock()
	b.publish(ev)
}

// publish hands ev to every subscriber without blocking. A subscriber
// whose queue is full loses the event; once it has room again it first gets
// an mc_events_dropped event saying how many it lost, so a gap is never
// silent.
func (b *Bus) publish(ev Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs {
		if s.unsaid > 0 {
			if cap(s.ch)-len(s.ch) < 2 {
				b.drop(s, ev)
				continue
			}
			s.ch <- DroppedEvent(s.unsaid, ev.Time)
			s.unsaid = 0
		}
		select {
		case s.ch <- ev:
		default:
			b.drop(s, ev)
		}
	}
}

func (b *Bus) drop(s *subscriber, ev Event) {
	s.unsaid++
	if s.retry == nil {
		// If the burst is followed by silence, no later publish would
		// announce the loss: try again shortly on our own.
		s.retry = time.AfterFunc(dropRetry, func() { b.announceDrops(s) })
	}
	if n := s.dropped.Add(1); n == 1 || n%1000 == 0 {
		b.log.Warn("event subscriber is behind; dropping events", "event", ev.Name, "dropped", n)
	}
}

// dropRetry is how often a subscriber that lost events is offered the
// notice while it has no room for it.
const dropRetry = 50 * time.Millisecond

// announceDrops delivers the pending mc_events_dropped notice once the
// subscriber has room, unless it has unsubscribed.
func (b *Bus) announceDrops(s *subscriber) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s.retry = nil
	if s.unsaid == 0 {
		return
	}
	subscribed := false
	for _, sub := range b.subs {
		if sub == s {
			subscribed = true
			break
		}
	}
	if !subscribed {
		return
	}
	select {
	case s.ch <- DroppedEvent(s.unsaid, b.now()):
		s.unsaid = 0
	default:
		s.retry = time.AfterFunc(dropRetry, func() { b.announceDrops(s) })
	}
}

// EventsDropped is mc_events_dropped's payload (and
// mc_call_events_dropped's).
type EventsDropped struct {
	Count    int64  `json:"count"`
	NextStep string `json:"next_step"`
}

// DroppedEvent is the mc_events_dropped event that tells a reader it lost n
// events at time at: the bus sends it to a subscriber that fell behind, and
// so does any fan-out of the bus's events that bounds its queues.
func DroppedEvent(n int64, at time.Time) Event {
	payload, _ := Marshal(EventsDropped{n, "Some events were lost because they were not read fast enough. Call mc_read_chat to catch up on chat and mc_status for the current state."})
	return Event{Name: "mc_events_dropped", Payload: payload, Time: at}
}

// CallEventsDropped is the event that tells an attached console (blockmate
// attach) it lost call events on the way from the watched blockmate: its
// timeline may lack calls. No other reader gets it; it is not on the bus.
const CallEventsDropped = "mc_call_events_dropped"

// CallEventsDroppedEvent is the CallEventsDropped event for n lost call
// events at time at.
func CallEventsDroppedEvent(n int64, at time.Time) Event {
	payload, _ := Marshal(EventsDropped{n, "The timeline may lack some calls or show some as still running; mc_status says what runs now."})
	return Event{Name: CallEventsDropped, Payload: payload, Time: at}
}

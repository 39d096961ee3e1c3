package core

import "sync"

// Notify tells waiters that something changed. A waiter takes Wait's
// channel, checks the state it waits for, and if it is not there yet waits
// for the channel to close; Broadcast closes it and starts a new one. No
// change is missed this way, and nobody polls.
type Notify struct {
	mu sync.Mutex
	ch chan struct{}
}

// Wait returns a channel that closes at the next Broadcast.
func (n *Notify) Wait() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ch == nil {
		n.ch = make(chan struct{})
	}
	return n.ch
}

// Broadcast wakes every waiter.
func (n *Notify) Broadcast() {
	n.mu.Lock()
	if n.ch != nil {
		close(n.ch)
		n.ch = nil
	}
	n.mu.Unlock()
}

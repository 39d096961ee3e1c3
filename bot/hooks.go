package bot

// OnSession registers fn to run, on its own goroutine, each time the bot
// has spawned in a world: the tools' self-care watches each session from
// its start, whoever joined it (mc_join, the console, a rejoin). Register
// before the first join.
func (c *Client) OnSession(fn func(*Session)) {
	c.mu.Lock()
	c.onSession = append(c.onSession, fn)
	c.mu.Unlock()
}

// sessionStarted runs the OnSession funcs for w.
func (c *Client) sessionStarted(w *Session) {
	c.mu.Lock()
	fns := append([]func(*Session){}, c.onSession...)
	c.mu.Unlock()
	for _, fn := range fns {
		go fn(w)
	}
}

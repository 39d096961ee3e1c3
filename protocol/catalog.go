package protocol

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Effect says what a tool does to the world, so a planner (or a person) can
// tell a look from a change from something that cannot be undone.
type Effect string

const (
	// Read tools only observe.
	Read Effect = "read"
	// Write tools change the game (move, chat, place) in ways that can be undone or are harmless.
	Write Effect = "write"
	// Destructive tools break, consume or kill things.
	Destructive Effect = "destructive"
)

// Handler runs a tool. It honours ctx (mc_stop and shutdown cancel it) and
// returns a result struct whose first field is the verdict, or an error whose
// text tells the caller what to do next.
type Handler func(ctx context.Context, args Args) (any, error)

// Tool is one entry of the catalog: everything any transport, the help text
// and the console's completion need to know about a tool.
type Tool struct {
	// Name is the stable public name, mc_snake_case.
	Name string
	// Description is one paragraph for a language model: what it does, when
	// to use it, what comes back.
	Description string
	Args        Schema
	Effect      Effect
	// UntrustedText is true when the result can carry text other players
	// wrote (chat, names, signs); consumers must treat it as data.
	UntrustedText bool
	// Idempotent is true when calling the tool again with the same
	// arguments changes nothing more (leaving, stopping). It only matters
	// for Write and Destructive tools; a Read tool changes nothing anyway.
	// The default, false, is the cautious answer.
	Idempotent bool
	// LocalOnly is true when the tool acts on blockmate alone (its own
	// calls, its clock, its catalog) and reaches no server, network or
	// other player. The default, false, says the tool touches an open world
	// that others share, which is true of everything that drives the bot.
	LocalOnly bool
	// Long marks a tool whose calls can run for longer than a client waits
	// (a walk, a collect, a night's sleep): it takes the wait argument, and
	// a call that outlives it answers early and goes on as a background
	// task (see tasks.go).
	Long    bool
	Handler Handler
}

var toolName = regexp.MustCompile(`^mc_[a-z0-9_]+$`)

// Catalog is the one list of tools. Tools are added at start-up, before any
// call is served; lookups are safe from any goroutine.
type Catalog struct {
	mu     sync.RWMutex
	tools  []*Tool
	byName map[string]*Tool
}

// NewCatalog returns an empty catalog.
func NewCatalog() *Catalog { return &Catalog{byName: map[string]*Tool{}} }

// Add registers a tool. A malformed or duplicate tool is a programming error
// and panics at start-up, where a test catches it, rather than at call time.
func (c *Catalog) Add(t Tool) {
	if !toolName.MatchString(t.Name) {
		panic(fmt.Sprintf("protocol: tool name %q is not mc_snake_case", t.Name))
	}
	if t.Handler == nil || t.Description == "" {
		panic(fmt.Sprintf("protocol: tool %s needs a description and a handler", t.Name))
	}
	switch t.Effect {
	case Read, Write, Destructive:
	default:
		panic(fmt.Sprintf("protocol: tool %s has effect %q; use Read, Write or Destructive", t.Name, t.Effect))
	}
	if t.Long {
		if _, has := t.Args.Lookup(WaitArgName); has {
			panic(fmt.Sprintf("protocol: tool %s declares %q itself; Long tools get it from the catalog", t.Name, WaitArgName))
		}
		t.Args = append(append(Schema(nil), t.Args...), waitArg())
	}
	seen := map[string]bool{}
	for _, a := range t.Args {
		if seen[a.Name] || a.Name == "" {
			panic(fmt.Sprintf("protocol: tool %s declares argument %q twice or empty", t.Name, a.Name))
		}
		seen[a.Name] = true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.byName[t.Name]; dup {
		panic(fmt.Sprintf("protocol: tool %s registered twice", t.Name))
	}
	tt := t
	c.tools = append(c.tools, &tt)
	c.byName[t.Name] = &tt
}

// Lookup finds a tool by name.
func (c *Catalog) Lookup(name string) (*Tool, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, ok := c.byName[name]
	return t, ok
}

// Tools lists the tools sorted by name, so listings are stable whatever the
// order the packages registered in.
func (c *Catalog) Tools() []*Tool {
	c.mu.RLock()
	out := append([]*Tool(nil), c.tools...)
	c.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names lists the tool names sorted.
func (c *Catalog) Names() []string {
	tools := c.Tools()
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return names
}

// Closest returns up to n tool names nearest to name, best first, for "did
// you mean" hints.
func (c *Catalog) Closest(name string, n int) []string { return closest(name, c.Names(), n) }

// ToolInfo is how a tool is listed to callers (mc_list_tools, `blockmate tools`).
type ToolInfo struct {
	Name          string `json:"name"`
	Description   string `json:"description"`
	Args          Schema `json:"args"`
	Effect        Effect `json:"effect"`
	UntrustedText bool   `json:"untrusted_text"`
}

// Info describes the tool for listings.
func (t *Tool) Info() ToolInfo {
	args := t.Args
	if args == nil {
		args = Schema{}
	}
	return ToolInfo{t.Name, t.Description, args, t.Effect, t.UntrustedText}
}

// closest ranks candidates by edit distance to name (ignoring case and a
// missing mc_ prefix) and keeps those near enough to be a plausible typo.
func closest(name string, candidates []string, n int) []string {
	type scored struct {
		name string
		d    int
	}
	q := strings.ToLower(name)
	var list []scored
	for _, c := range candidates {
		d := levenshtein(q, c)
		if alt := levenshtein("mc_"+q, c); alt < d {
			d = alt
		}
		if strings.Contains(c, strings.TrimPrefix(q, "mc_")) && len(strings.TrimPrefix(q, "mc_")) >= 3 {
			d = min(d, 2)
		}
		limit := max(2, len(c)/3)
		if d <= limit {
			list = append(list, scored{c, d})
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].d != list[j].d {
			return list[i].d < list[j].d
		}
		return list[i].name < list[j].name
	})
	out := []string{}
	for i := 0; i < len(list) && i < n; i++ {
		out = append(out, list[i].name)
	}
	return out
}

// levenshtein is the edit distance between a and b. Names are short, so the
// quadratic table is fine; inputs are capped so a hostile 1 MiB tool name
// costs nothing.
func levenshtein(a, b string) int {
	if len(a) > 64 {
		a = a[:64]
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

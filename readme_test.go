package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/protocol"
)

var update = flag.Bool("update", false, "rewrite generated parts of README.md")

const (
	toolsBegin  = "<!-- tools:begin (generated from the catalog by `go test -run TestReadme -update .`) -->"
	toolsEnd    = "<!-- tools:end -->"
	eventsBegin = "<!-- events:begin (generated from protocol.EventCatalog) -->"
	eventsEnd   = "<!-- events:end -->"
	// The versions the bot joins, from the one release list.
	versionsBegin = "<!-- versions:begin (generated from mcdata.Releases) -->"
	versionsEnd   = "<!-- versions:end -->"
)

// versionTable renders the release list: each protocol, the game versions
// that speak it, and where its tables come from (a minecraft-data folder,
// or the facts the generator emits a release from).
func versionTable() string {
	var b strings.Builder
	b.WriteString("| protocol | game versions | tables from |\n|---|---|---|\n")
	for _, r := range mcdata.Releases() {
		from := "minecraft-data " + mcdata.DataVersion + " (`" + r.Data + "`)"
		if v, ok := strings.CutPrefix(r.Data, "blockmate/"); ok {
			from = "public facts, emitted (`bot/mcdata/internal/gen/sources/" + v + ".json`)"
		}
		fmt.Fprintf(&b, "| %d | %s | %s |\n", r.Protocol, strings.Join(r.Names, ", "), from)
	}
	return b.String()
}

// toolTable renders the catalog as the README's Markdown table.
func toolTable(c *protocol.Catalog) string {
	var b strings.Builder
	b.WriteString("| tool | effect | arguments | what it does |\n|---|---|---|---|\n")
	for _, t := range c.Tools() {
		var args []string
		for _, a := range t.Args {
			name := "`" + a.Name + "`"
			if !a.Required {
				name += "?"
			}
			args = append(args, name)
		}
		desc := firstSentence(t.Description)
		if t.UntrustedText {
			desc += " *Carries text other players wrote.*"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", t.Name, t.Effect, strings.Join(args, ", "), strings.ReplaceAll(desc, "|", "\\|"))
	}
	return b.String()
}

func eventTable() string {
	var b strings.Builder
	b.WriteString("| event | payload | debounce |\n|---|---|---|\n")
	for _, e := range protocol.EventCatalog {
		window := "none: every one is sent"
		if e.Window > 0 {
			window = e.Window.String()
			if e.KeyedBy != "" {
				window += " per " + e.KeyedBy
			}
		}
		desc := e.Description
		if e.UntrustedText {
			desc = strings.TrimSuffix(desc, ".") + "."
		}
		if e.Coming {
			desc = "*Coming: not sent yet.* " + desc
		}
		fields := make([]string, len(e.Payload))
		for i, f := range e.Payload {
			fields[i] = "`" + f + "`"
			if slices.Contains(e.Optional, f) {
				fields[i] += "?"
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s — %s | %s |\n", e.Name, strings.Join(fields, ", "), desc, window)
	}
	return b.String()
}

func replaceBlock(doc, begin, end, body string) (string, bool) {
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		return doc, false
	}
	return doc[:i+len(begin)] + "\n" + body + doc[j:], true
}

// TestReadmeTablesMatchTheCatalog keeps the README's tool, event and
// version tables true: they are generated from the catalog and the release
// list, and this fails when they drift.
func TestReadmeTablesMatchTheCatalog(t *testing.T) {
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	want, ok1 := replaceBlock(doc, toolsBegin, toolsEnd, toolTable(wire(slog.New(slog.DiscardHandler)).catalog))
	want, ok2 := replaceBlock(want, eventsBegin, eventsEnd, eventTable())
	want, ok3 := replaceBlock(want, versionsBegin, versionsEnd, versionTable())
	if !ok1 || !ok2 || !ok3 {
		t.Fatal("README.md lacks the tools, events or versions markers")
	}
	if want == doc {
		return
	}
	if *update {
		if err := os.WriteFile("README.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatal("README.md's tool, event or version table is out of date: run `go test -run TestReadme -update .`")
}

// firstSentence cuts a description after its first sentence, not fooled by
// "e.g." or "i.e.".
func firstSentence(s string) string {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' && !strings.HasSuffix(s[:i+1], "e.g.") && !strings.HasSuffix(s[:i+1], "i.e.") {
			return s[:i+1]
		}
	}
	return s
}

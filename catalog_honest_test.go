package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/protocol"
)

// TestEveryEventIsSentOrComing keeps the event catalog honest: an event the
// catalog lists as sent appears, as a string, in code outside the catalog,
// the tests, the console (which only shows events) and the MCP server (which
// only relays them, at a log level per kind), so some code can emit it; an
// event marked coming appears in none of that code (else it has landed and
// should lose its mark).
func TestEveryEventIsSentOrComing(t *testing.T) {
	var sources []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || path == "ui" || path == "mcp" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || path == filepath.Join("protocol", "eventcatalog.go") {
			return nil
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sources = append(sources, string(raw))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	used := func(name string) bool {
		for _, src := range sources {
			if strings.Contains(src, `"`+name+`"`) {
				return true
			}
		}
		return false
	}
	for _, e := range protocol.EventCatalog {
		switch {
		case e.Coming && used(e.Name):
			t.Errorf("%s is marked coming, but code names it: remove the mark once it is really sent", e.Name)
		case !e.Coming && !used(e.Name):
			t.Errorf("%s is listed as sent, but no code names it: mark it Coming until a feature emits it", e.Name)
		}
	}
}

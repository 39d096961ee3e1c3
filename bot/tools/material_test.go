package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/material"
	"github.com/blockmate/blockmate/bot/mcdata"
)

// describedBlock is the part of mc_material_describe's answer the test
// reads (the properties as JSON, a name to values).
type describedBlock struct {
	ID         string              `json:"id"`
	Block      bool                `json:"block"`
	Properties map[string][]string `json:"properties"`
	Version    string              `json:"version"`
}

// TestMaterialToolsOnEveryVersion: with no world, every block of every
// version describes through mc_material_describe, and every value of every
// property it lists reads back through the state syntax as that value and
// prints as it reads; search pages through the tool are stable and a
// cursor is refused for another search.
func TestMaterialToolsOnEveryVersion(t *testing.T) {
	_, d := newDispatchedClient(t)
	for _, r := range mcdata.Releases() {
		g := mcdata.Game(int32(r.Protocol))
		version := r.Names[len(r.Names)-1]
		for i := range g.Blocks {
			b := &g.Blocks[i]
			desc := decode[describedBlock](t, callN(t, d, "mc_material_describe", fmt.Sprintf(`{"id":"minecraft:%s","version":%q}`, b.Name, version)))
			if desc.ID != b.Name || !desc.Block || desc.Version != g.Version {
				t.Fatalf("%s %s: %+v", version, b.Name, desc)
			}
			if len(desc.Properties) != len(b.Props) {
				t.Fatalf("%s %s: properties %v", version, b.Name, desc.Properties)
			}
			for name, values := range desc.Properties {
				for _, v := range values {
					text := fmt.Sprintf("%s[%s=%s]", b.Name, name, v)
					st, err := g.ParseState(text)
					if err != nil {
						t.Fatalf("%s: %s: %v", version, text, err)
					}
					if got, _ := st.Value(name); got != v {
						t.Fatalf("%s: %s reads %s=%s", version, text, name, got)
					}
					back, err := g.ParseState(st.String())
					if err != nil || back.ID != st.ID {
						t.Fatalf("%s: %s prints %s, which reads %v, %v", version, text, st.String(), back.ID, err)
					}
				}
			}
		}
		if res := callN(t, d, "mc_material_describe", fmt.Sprintf(`{"id":"oak_stairs[facing=up]","version":%q}`, version)); res.OK {
			t.Fatalf("%s: a state was described: %s", version, res.Result)
		}
	}
	pages := func() []string {
		var ids []string
		cursor := ""
		for n := 0; ; n++ {
			args := `{"query":"oak","kind":"all","limit":5`
			if cursor != "" {
				args += `,"cursor":"` + cursor + `"`
			}
			res := decode[MaterialSearchResult](t, callN(t, d, "mc_material_search", args+`}`))
			for _, e := range res.Results {
				ids = append(ids, e.ID)
			}
			if res.NextCursor == "" {
				if len(ids) != res.Total {
					t.Fatalf("%d ids over the pages, total %d", len(ids), res.Total)
				}
				return ids
			}
			if n > 100 {
				t.Fatal("the pages do not end")
			}
			cursor = res.NextCursor
		}
	}
	a, b := pages(), pages()
	if strings.Join(a, ",") != strings.Join(b, ",") || len(a) < 10 {
		t.Fatalf("pages differ or are few:\n%v\n%v", a, b)
	}
	first := decode[MaterialSearchResult](t, callN(t, d, "mc_material_search", `{"query":"oak","limit":2}`))
	if res := callN(t, d, "mc_material_search", `{"query":"birch","limit":2,"cursor":"`+first.NextCursor+`"}`); res.OK {
		t.Fatalf("a cursor of another search was read: %s", res.Result)
	}
	if res := callN(t, d, "mc_material_search", `{"version":"1.8.9"}`); res.OK || !strings.Contains(res.Error, "no data for version") {
		t.Fatalf("an unknown version: %+v", res)
	}
	var raw map[string]json.RawMessage
	res := callN(t, d, "mc_material_search", `{"query":"oak_door","kind":"block","limit":`+fmt.Sprint(material.MaxLimit)+`}`)
	if err := json.Unmarshal(res.Result, &raw); err != nil || raw["total"] == nil || raw["version"] == nil {
		t.Fatalf("search result %s", res.Result)
	}
}

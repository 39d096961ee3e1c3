package main

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// TestMCPMaterialResources: through the real `blockmate mcp`, the game's
// blocks and items are resource templates, and reading one answers what
// mc_material_describe does, with no world joined; an id that is not of
// that kind is not found.
func TestMCPMaterialResources(t *testing.T) {
	ctx, cancel := testctx.New(t)
	defer cancel()
	cs, stderr := mcpClient(t, ctx, "2025-11-25", nil)
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, rt := range templates.ResourceTemplates {
		have[rt.URITemplate] = true
	}
	if !have["minecraft://block/{id}"] || !have["minecraft://item/{id}"] {
		t.Fatalf("templates %v", have)
	}
	read := func(uri string) (map[string]json.RawMessage, error) {
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			return nil, err
		}
		var out map[string]json.RawMessage
		if len(res.Contents) != 1 || res.Contents[0].MIMEType != "application/json" {
			t.Fatalf("%s: contents %+v", uri, res.Contents)
		}
		return out, json.Unmarshal([]byte(res.Contents[0].Text), &out)
	}
	stairs, err := read("minecraft://block/oak_stairs")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var props map[string][]string
	json.Unmarshal(stairs["properties"], &props)
	if len(props["facing"]) != 4 || !strings.Contains(string(stairs["default_state"]), "oak_stairs[") {
		t.Errorf("oak_stairs: %s %s", stairs["properties"], stairs["default_state"])
	}
	if door, err := read("minecraft://item/oak_door"); err != nil || string(door["item"]) != "true" {
		t.Errorf("the item oak_door: %v %v", door, err)
	}
	for _, uri := range []string{"minecraft://block/stick", "minecraft://item/no_such_thing", "minecraft://block/oak_stairs[facing=up]"} {
		if _, err := read(uri); err == nil {
			t.Errorf("%s was found", uri)
		}
	}
}

package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/blockmate/blockmate/protocol"
)

// The game's blocks and items as resources: minecraft://block/{id} and
// minecraft://item/{id}, offered as resource templates, so a client can
// read a block's states as a document. Each read goes through the
// catalog's describe tool, the one source of what a block is; a catalog
// without it (a test's) has no such resources.
const (
	materialTool    = "mc_material_describe"
	blockURIPrefix  = "minecraft://block/"
	itemURIPrefix   = "minecraft://item/"
	materialMIME    = "application/json"
	maxMaterialName = 128
)

func (s *Server) addMaterialResources() {
	if _, ok := s.d.Catalog().Lookup(materialTool); !ok {
		return
	}
	s.sdk.AddResourceTemplate(&sdk.ResourceTemplate{
		URITemplate: blockURIPrefix + "{id}",
		Name:        "block",
		Title:       "A Minecraft block",
		Description: "One block of the game's data, as mc_material_describe answers: default state, each property with its allowed values, hardness, tool, drops, behaviour hints. {id} is the block's id without the namespace, e.g. oak_stairs.",
		MIMEType:    materialMIME,
	}, s.readMaterial(blockURIPrefix, true))
	s.sdk.AddResourceTemplate(&sdk.ResourceTemplate{
		URITemplate: itemURIPrefix + "{id}",
		Name:        "item",
		Title:       "A Minecraft item",
		Description: "One item of the game's data, as mc_material_describe answers: stack size, the block it places, how it is crafted. {id} is the item's id without the namespace, e.g. oak_door.",
		MIMEType:    materialMIME,
	}, s.readMaterial(itemURIPrefix, false))
}

// readMaterial reads one material resource; block says the URI names a
// block (else an item), and an id that is not one is not found.
func (s *Server) readMaterial(prefix string, block bool) sdk.ResourceHandler {
	return func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		uri := req.Params.URI
		id := strings.TrimPrefix(uri, prefix)
		if id == uri || id == "" || len(id) > maxMaterialName || strings.ContainsAny(id, "/[]:?#") {
			return nil, sdk.ResourceNotFoundError(uri)
		}
		arg, _ := json.Marshal("minecraft:" + id)
		callID := "mcp-resource-" + strconv.FormatUint(s.callSeq.Add(1), 10)
		resp := s.d.Call(protocol.WithOrigin(ctx, protocol.OriginMCP), protocol.Request{
			ID: json.RawMessage(strconv.Quote(callID)), Tool: materialTool, Args: map[string]json.RawMessage{"id": arg},
		})
		if !resp.OK {
			return nil, sdk.ResourceNotFoundError(uri)
		}
		var kinds struct{ Block, Item bool }
		if err := json.Unmarshal(resp.Result, &kinds); err != nil {
			return nil, fmt.Errorf("the description of %s could not be read (%v); this is a blockmate bug, please report it", id, err)
		}
		if block && !kinds.Block || !block && !kinds.Item {
			return nil, sdk.ResourceNotFoundError(uri)
		}
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: materialMIME, Text: string(resp.Result)}}}, nil
	}
}

package mcp_test

import (
	"bytes"
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/blockmate/blockmate/internal/testkit/testctx"
	"github.com/blockmate/blockmate/mcp"
	"github.com/blockmate/blockmate/protocol"
)

// pictured is a result with a picture, as mc_build_prepare's is.
type pictured struct {
	Drawn bool `json:"drawn"`
}

var tinyPNG = []byte("\x89PNG\r\n\x1a\nnot really")

func (pictured) Pictures() []protocol.Image {
	return []protocol.Image{{MIMEType: "image/png", Data: tinyPNG}}
}

// TestResultPicturesBecomeImageContent: a result's pictures follow its
// JSON as MCP image content, and the JSON does not carry them.
func TestResultPicturesBecomeImageContent(t *testing.T) {
	catalog := protocol.NewCatalog()
	d := protocol.NewDispatcher(catalog, protocol.NewBus(nil), nil)
	catalog.Add(protocol.Tool{
		Name: "mc_test_picture", Description: "Draws.", Effect: protocol.Read,
		Handler: func(context.Context, protocol.Args) (any, error) { return pictured{true}, nil },
	})
	s := mcp.New(d, mcp.Options{Version: "test"})
	t.Cleanup(s.Close)
	ctx, cancel := testctx.New(t)
	defer cancel()
	cs := connectPipes(t, ctx, &fixture{d: d, server: s}, eras[0], nil)
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "mc_test_picture"})
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	if len(res.Content) != 2 {
		t.Fatalf("content %+v", res.Content)
	}
	text, ok := res.Content[0].(*sdk.TextContent)
	if !ok || text.Text != `{"drawn":true}` {
		t.Errorf("text %+v", res.Content[0])
	}
	img, ok := res.Content[1].(*sdk.ImageContent)
	if !ok || img.MIMEType != "image/png" || !bytes.Equal(img.Data, tinyPNG) {
		t.Errorf("image %+v", res.Content[1])
	}
}

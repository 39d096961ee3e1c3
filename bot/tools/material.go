package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/blockmate/blockmate/bot/material"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/protocol"
)

// The game's blocks and items, from the generated data: they need no world,
// so a model can learn a block's states before the bot joins anything.

// MaterialSearchResult is mc_material_search's result: the package's
// answer, then the data version it came from (a cursor belongs to it).
type MaterialSearchResult struct {
	material.SearchResult
	Version string `json:"version"`
}

// MaterialDescribeResult is mc_material_describe's result.
type MaterialDescribeResult struct {
	material.Description
	Version string `json:"version"`
}

// versionArg is the optional game version of the data tools.
var versionArg = protocol.Str("version", "the game version whose data to read, e.g. 1.21.4; default: the world the bot is in, else the newest blockmate knows").Len(1, 16)

// gameFor is the data of the named version, else the world's, else the
// newest: the one rule every data tool follows.
func (t *Tools) gameFor(version string) (*mcdata.GameData, error) {
	version = strings.TrimSpace(version)
	releases := mcdata.Releases()
	if version == "" {
		if s, err := t.cl.Session(); err == nil {
			if g := s.Level().Game(); g != nil {
				return g, nil
			}
		}
		return mcdata.Game(int32(releases[len(releases)-1].Protocol)), nil
	}
	var names []string
	for _, r := range releases {
		for _, n := range r.Names {
			if n == version {
				if g := mcdata.Game(int32(r.Protocol)); g != nil {
					return g, nil
				}
			}
		}
		names = append(names, r.Names[len(r.Names)-1])
	}
	return nil, fmt.Errorf("blockmate has no data for version %q; it knows %s", version, strings.Join(names, ", "))
}

func (t *Tools) registerMaterial(c *protocol.Catalog) {
	c.Add(protocol.Tool{
		Name: "mc_material_search",
		Description: "Searches the game's blocks and items by name, from blockmate's data (no world needed): every whitespace-separated word of query must appear in the id (\"oak stairs\" finds oak_stairs). " +
			"Answers total and one page of results [{id, block, item}], exact id first; next_cursor continues the same search (a cursor belongs to its query, kind and version). Then mc_material_describe one to three of them.",
		Args: protocol.Schema{
			protocol.Str("query", "words the id must contain; empty lists everything").Len(0, material.MaxQuery),
			protocol.Str("kind", "block, item or all").OneOf(material.KindBlock, material.KindItem, material.KindAll).Def(material.KindBlock),
			protocol.Int("limit", "results per page", 1, material.MaxLimit).Def(material.DefaultLimit),
			protocol.Str("cursor", "next_cursor of the previous page").Len(1, material.MaxCursor),
			versionArg,
		},
		Effect:    protocol.Read,
		LocalOnly: true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			g, err := t.gameFor(a.String("version"))
			if err != nil {
				return nil, err
			}
			r, err := material.Search(g, material.SearchArgs{Query: a.String("query"), Kind: a.String("kind"), Limit: a.Int("limit"), Cursor: a.String("cursor")})
			if err != nil {
				return nil, err
			}
			return MaterialSearchResult{r, g.Version}, nil
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_material_describe",
		Description: "Describes one block or item from blockmate's data (no world needed): whether it is a block, an item or both, the default state, each property with its allowed values (never every combination), hardness and the tool that mines it, what it drops, the items that place it, how it is crafted, and behaviour hints (falls, fluid, attaches to a neighbour, two parts, keeps block data). " +
			"Block states are written as the game does, oak_stairs[facing=south,half=bottom]; every building tool reads them.",
		Args: protocol.Schema{
			protocol.Str("id", "the block or item id, e.g. oak_door or minecraft:oak_door").Req().Len(1, material.MaxID),
			versionArg,
		},
		Effect:    protocol.Read,
		LocalOnly: true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			g, err := t.gameFor(a.String("version"))
			if err != nil {
				return nil, err
			}
			d, err := material.Describe(g, strings.TrimSpace(a.String("id")))
			if err != nil {
				return nil, err
			}
			return MaterialDescribeResult{d, g.Version}, nil
		},
	})
}

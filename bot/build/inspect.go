package build

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"

	"github.com/blockmate/blockmate/bot/material"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/schematic"
)

// Detail levels of an inspection.
const (
	DetailSummary = "summary"
	DetailBlocks  = "blocks"
)

// Inspection is mc_region_inspect's answer: TOOLS.md's fields, then the
// region and how many positions were read.
type Inspection struct {
	Palette []PaletteEntry `json:"palette"`
	// Blocks are every read position's state (detail blocks), y, then z,
	// then x ascending.
	Blocks []BlockAt `json:"blocks,omitempty"`
	// Unloaded are the parts of the region that could not be read, one
	// box per chunk column; they are in neither the palette nor blocks.
	Unloaded []UnloadedPart `json:"unloaded,omitempty"`
	Region   Region         `json:"region"`
	Loaded   int            `json:"loaded"`
}

// PaletteEntry is one state and how many positions hold it.
type PaletteEntry struct {
	State string `json:"state"`
	Count int    `json:"count"`
}

// BlockAt is one position's state.
type BlockAt struct {
	Pos   Pos    `json:"pos"`
	State string `json:"state"`
}

// UnloadedPart is the box around the unread positions of one chunk column,
// and how many there are (fewer than the box holds when only some rows lie
// outside the dimension).
type UnloadedPart struct {
	Min   Pos `json:"min"`
	Max   Pos `json:"max"`
	Count int `json:"count"`
}

// Inspect reads a region of at most MaxPositions positions: a palette of
// states with counts (most first, then by name), each position's state
// for detail blocks, and the parts that could not be read.
func Inspect(g *mcdata.GameData, read Reader, a, b Pos, detail string) (*Inspection, error) {
	switch detail {
	case "":
		detail = DetailSummary
	case DetailSummary, DetailBlocks:
	default:
		return nil, fmt.Errorf("detail %q is not summary or blocks; summary gives the palette, blocks every position too", detail)
	}
	r, err := NewRegion(a, b)
	if err != nil {
		return nil, err
	}
	names := newStateNames(g)
	counts := map[mcdata.StateID]int{}
	out := &Inspection{Region: r}
	w, h, l := r.Size()
	if detail == DetailBlocks {
		out.Blocks = make([]BlockAt, 0, w*h*l)
	}
	type column struct{ x, z int }
	unloaded := map[column]*UnloadedPart{}
	var order []column
	r.each(func(p Pos) {
		s, ok := read(p)
		if !ok {
			c := column{p.X >> 4, p.Z >> 4}
			u := unloaded[c]
			if u == nil {
				u = &UnloadedPart{Min: p, Max: p}
				unloaded[c] = u
				order = append(order, c)
			}
			u.Min = Pos{min(u.Min.X, p.X), min(u.Min.Y, p.Y), min(u.Min.Z, p.Z)}
			u.Max = Pos{max(u.Max.X, p.X), max(u.Max.Y, p.Y), max(u.Max.Z, p.Z)}
			u.Count++
			return
		}
		counts[s]++
		out.Loaded++
		if detail == DetailBlocks {
			out.Blocks = append(out.Blocks, BlockAt{p, names.of(s)})
		}
	})
	out.Palette = make([]PaletteEntry, 0, len(counts))
	for s, n := range counts {
		out.Palette = append(out.Palette, PaletteEntry{names.of(s), n})
	}
	sort.Slice(out.Palette, func(i, j int) bool {
		a, b := out.Palette[i], out.Palette[j]
		return a.Count > b.Count || a.Count == b.Count && a.State < b.State
	})
	sort.Slice(order, func(i, j int) bool {
		return order[i].x < order[j].x || order[i].x == order[j].x && order[i].z < order[j].z
	})
	for _, c := range order {
		out.Unloaded = append(out.Unloaded, *unloaded[c])
	}
	return out, nil
}

// Capture reads a region into a schematic whose origin is the region's
// minimum corner (offset zero), every position included, air too. An
// unloaded position refuses the capture: a schematic must not hold a
// guess.
func Capture(g *mcdata.GameData, read Reader, a, b Pos) (*schematic.Schematic, error) {
	r, err := NewRegion(a, b)
	if err != nil {
		return nil, err
	}
	w, h, l := r.Size()
	dv, _ := schematic.DataVersionOf(g.Version)
	s := &schematic.Schematic{Width: w, Height: h, Length: l, DataVersion: dv, Blocks: make([]int, 0, w*h*l)}
	index := map[mcdata.StateID]int{}
	var withData []bool // per palette entry: the block keeps a block entity
	var unloaded []Pos
	r.each(func(p Pos) {
		st, ok := read(p)
		if !ok {
			unloaded = append(unloaded, p)
			return
		}
		i, seen := index[st]
		if !seen {
			i = len(s.Palette)
			index[st] = i
			state, _ := g.StateByID(st)
			s.Palette = append(s.Palette, "minecraft:"+state.String())
			withData = append(withData, state.Block != nil && material.HoldsBlockEntity(state.Block))
		}
		s.Blocks = append(s.Blocks, i)
		if withData[i] {
			s.BlockEntities++
		}
	})
	if len(unloaded) > 0 {
		return nil, fmt.Errorf("%s not loaded, so the schematic would hold guesses; come within view of the region and export again", listPositions(unloaded))
	}
	return s, nil
}

// Export is mc_schematic_export's answer: TOOLS.md's fields, then how
// many blocks lost their block-entity data (chest contents, sign text:
// the schematic keeps their states only).
type Export struct {
	AssetID      string `json:"asset_id"`
	Name         string `json:"name"`
	Width        int    `json:"width"`
	Height       int    `json:"height"`
	Length       int    `json:"length"`
	SHA256       string `json:"sha256"`
	Bytes        int    `json:"bytes"`
	WithoutData  int    `json:"blocks_without_data,omitempty"`
	DataVersion  int    `json:"data_version"`
	BlockCount   int    `json:"block_count"`
	PaletteCount int    `json:"palette"`
}

// ExportRegion captures a region as a Sponge schematic file's bytes under
// a checked name (schematic.CheckName); the caller stores them as
// name + ".schem" in blockmate's folder. The asset id is the name.
func ExportRegion(g *mcdata.GameData, read Reader, name string, a, b Pos) (Export, []byte, error) {
	if err := schematic.CheckName(name); err != nil {
		return Export{}, nil, err
	}
	s, err := Capture(g, read, a, b)
	if err != nil {
		return Export{}, nil, err
	}
	file, err := schematic.Encode(s)
	if err != nil {
		return Export{}, nil, err
	}
	sum := sha256.Sum256(file)
	nonAir := 0
	for _, i := range s.Blocks {
		if st, _ := g.ParseState(s.Palette[i]); !g.IsAir(st.ID) {
			nonAir++
		}
	}
	return Export{
		AssetID: name, Name: name, Width: s.Width, Height: s.Height, Length: s.Length,
		SHA256: hex.EncodeToString(sum[:]), Bytes: len(file), WithoutData: s.BlockEntities,
		DataVersion: s.DataVersion, BlockCount: nonAir, PaletteCount: len(s.Palette),
	}, file, nil
}

// Import reads a schematic file and places it with its origin at target,
// turned by a rotation in degrees (0, 90, 180, 270, clockwise seen from
// above): the target a plan is prepared from.
func Import(g *mcdata.GameData, file []byte, target Pos, rotation int) (*Target, *schematic.Schematic, error) {
	q, err := QuarterTurns(rotation)
	if err != nil {
		return nil, nil, err
	}
	s, err := schematic.Decode(file)
	if err != nil {
		return nil, nil, err
	}
	states, err := s.Resolve(g)
	if err != nil {
		return nil, nil, err
	}
	t, err := FromSchematic(g, s.Width, s.Height, s.Length, s.Offset, states, s.Blocks, target, q)
	if err != nil {
		return nil, nil, err
	}
	return t, s, nil
}

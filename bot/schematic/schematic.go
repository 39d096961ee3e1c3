// Package schematic reads and writes Sponge schematics: gzip-compressed
// NBT holding a box of block states as a palette and one varint per
// position (https://github.com/SpongePowered/Schematic-Specification).
// Version 2 is written; versions 2 and 3 (WorldEdit 7.3's default) are
// read. Files come from people and other programs, so the reader is
// bounded at every step and refuses, with a sentence, whatever is
// malformed, oversized or hostile: it never panics and never allocates
// from a number in the file that it has not checked first.
//
// What is kept is the blocks. Block-entity and entity payloads (chest
// contents, sign text, mobs) and biomes are counted, not decoded: a plan
// built from a schematic places states only, and says how many payloads
// it leaves out.
package schematic

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"regexp"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// The reader's bounds, the seed builder's: a schematic is a small thing a
// bot places by hand.
const (
	// MaxPositions is the largest Width×Height×Length read or written.
	MaxPositions = 4096
	// MaxFileBytes is the largest compressed file.
	MaxFileBytes = 1 << 20
	// MaxNBTBytes is the largest decompressed NBT.
	MaxNBTBytes = 4 << 20
)

// Schematic is a box of block states. Block i is at x = i % Width,
// z = (i / Width) % Length, y = i / (Width × Length), as the format packs
// them.
type Schematic struct {
	Width, Height, Length int
	// Offset is where the box's origin lies relative to the point it is
	// pasted at (WorldEdit writes min − origin).
	Offset [3]int
	// DataVersion is the world data version of the game that wrote it.
	DataVersion int
	// Palette holds the block states as the file writes them
	// ("minecraft:oak_stairs[facing=east,half=bottom,…]"); Blocks the
	// palette index of each position.
	Palette []string
	Blocks  []int
	// BlockEntities and Entities count the payloads the file carries and
	// this package does not keep.
	BlockEntities, Entities int
}

// Index is the position of block (x, y, z) in Blocks.
func (s *Schematic) Index(x, y, z int) int { return x + z*s.Width + y*s.Width*s.Length }

// Volume is Width × Height × Length.
func (s *Schematic) Volume() int { return s.Width * s.Height * s.Length }

// Check says whether the schematic is well formed: sizes within bounds,
// one palette index per position, every index in the palette.
func (s *Schematic) Check() error {
	if s.Width < 1 || s.Height < 1 || s.Length < 1 {
		return fmt.Errorf("the schematic is %d×%d×%d; every side must be at least 1", s.Width, s.Height, s.Length)
	}
	if s.Width > MaxPositions || s.Height > MaxPositions || s.Length > MaxPositions || s.Volume() > MaxPositions {
		return fmt.Errorf("the schematic is %d×%d×%d; at most %d positions are accepted", s.Width, s.Height, s.Length, MaxPositions)
	}
	if len(s.Blocks) != s.Volume() {
		return fmt.Errorf("the schematic has %d blocks for %d positions", len(s.Blocks), s.Volume())
	}
	if len(s.Palette) == 0 || len(s.Palette) > s.Volume() {
		return fmt.Errorf("the schematic's palette has %d states for %d positions", len(s.Palette), s.Volume())
	}
	for _, b := range s.Blocks {
		if b < 0 || b >= len(s.Palette) {
			return fmt.Errorf("a block of the schematic uses palette index %d of %d", b, len(s.Palette))
		}
	}
	for _, p := range s.Palette {
		if len(p) > mcdata.MaxStateText {
			return fmt.Errorf("a palette state of the schematic is %d characters long; at most %d are accepted", len(p), mcdata.MaxStateText)
		}
	}
	return nil
}

// Resolve reads the palette as states of a version: each must be a block
// state of it (unknown names, properties or values are refused with the
// game's choices, as mc_build_prepare refuses them in a recipe), and a file
// written by a newer game than g is refused, since nothing converts its
// states.
func (s *Schematic) Resolve(g *mcdata.GameData) ([]mcdata.BlockState, error) {
	if dv, ok := DataVersionOf(g.Version); ok && s.DataVersion > dv {
		return nil, fmt.Errorf("the schematic was written by a newer Minecraft (data version %d) than %s (%d); export it from %s or older", s.DataVersion, g.Version, dv, g.Version)
	}
	out := make([]mcdata.BlockState, len(s.Palette))
	for i, text := range s.Palette {
		st, err := g.ParseState(text)
		if err != nil {
			return nil, fmt.Errorf("the schematic's palette entry %q: %v", text, err)
		}
		out[i] = st
	}
	return out, nil
}

// nameRule is a schematic's name: a file stem, no path, no dots.
var nameRule = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// CheckName says whether name may name a schematic file in blockmate's
// folder ("hut", "tower-2"): 1–64 letters, digits, _ and -, starting with
// a letter or digit. Paths, dots and extensions are refused, so a name can
// never leave the folder.
func CheckName(name string) error {
	if !nameRule.MatchString(name) {
		return fmt.Errorf("schematic name %q is not accepted; use 1–64 letters, digits, _ or -, starting with a letter or digit, without a path or .schem (such as hut or tower-2)", name)
	}
	return nil
}

// Decode reads a Sponge schematic file (gzip NBT, version 2 or 3).
func Decode(file []byte) (*Schematic, error) {
	if len(file) > MaxFileBytes {
		return nil, fmt.Errorf("the schematic file is %d bytes; at most %d (1 MiB) are accepted", len(file), MaxFileBytes)
	}
	zr, err := gzip.NewReader(bytes.NewReader(file))
	if err != nil {
		return nil, fmt.Errorf("the schematic file is not gzip-compressed NBT (%v); save it as a Sponge .schem file", err)
	}
	zr.Multistream(false)
	raw, err := io.ReadAll(io.LimitReader(zr, MaxNBTBytes+1))
	if err != nil {
		return nil, fmt.Errorf("the schematic file's compressed data is damaged (%v); save it again", err)
	}
	if len(raw) > MaxNBTBytes {
		return nil, fmt.Errorf("the schematic file decompresses to more than %d bytes (4 MiB); a schematic of %d positions needs far less", MaxNBTBytes, MaxPositions)
	}
	root, err := readNamedCompound(raw)
	if err != nil {
		return nil, err
	}
	// Version 3 wraps the schematic in a "Schematic" compound; version 2
	// is the root itself.
	if inner, ok := root["Schematic"].(map[string]any); ok && len(root) == 1 {
		root = inner
	}
	return fromNBT(root)
}

// readNamedCompound reads file NBT: a compound's type byte, its name and
// its payload. The network reader (wire.Reader.NBT) reads the same payload
// without the name, so the name is stepped over in place.
func readNamedCompound(raw []byte) (map[string]any, error) {
	if len(raw) < 3 || raw[0] != 10 {
		return nil, errors.New("the schematic file does not hold an NBT compound; save it as a Sponge .schem file")
	}
	n := int(raw[1])<<8 | int(raw[2])
	if 3+n > len(raw) {
		return nil, errors.New("the schematic file's NBT ends inside its name; the file is cut short")
	}
	body := raw[2+n:]
	body[0] = 10 // the type byte, where the name's last byte (or length) was
	r := wire.NewReader(body)
	v := r.NBT()
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("the schematic file's NBT does not read (%v); the file is damaged or not a schematic", err)
	}
	if r.Remaining() != 0 {
		return nil, fmt.Errorf("the schematic file has %d bytes after its NBT; the file is damaged", r.Remaining())
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("the schematic file does not hold an NBT compound")
	}
	return m, nil
}

func fromNBT(root map[string]any) (*Schematic, error) {
	version, ok := root["Version"].(int32)
	if !ok {
		return nil, errors.New("the schematic has no Version; it is not a Sponge schematic (.schematic files of MCEdit are not read)")
	}
	if version != 2 && version != 3 {
		return nil, fmt.Errorf("the schematic is Sponge version %d; versions 2 and 3 are read", version)
	}
	s := &Schematic{}
	dv, ok := root["DataVersion"].(int32)
	if !ok {
		return nil, errors.New("the schematic has no DataVersion; save it again with a current tool")
	}
	s.DataVersion = int(dv)
	for _, side := range []struct {
		key string
		to  *int
	}{{"Width", &s.Width}, {"Height", &s.Height}, {"Length", &s.Length}} {
		v, ok := root[side.key].(int16)
		if !ok {
			return nil, fmt.Errorf("the schematic has no %s", side.key)
		}
		*side.to = int(uint16(v)) // unsigned shorts, as the format says
	}
	if s.Width < 1 || s.Height < 1 || s.Length < 1 || s.Volume() > MaxPositions {
		return nil, fmt.Errorf("the schematic is %d×%d×%d; at most %d positions are accepted, every side at least 1", s.Width, s.Height, s.Length, MaxPositions)
	}
	if off, ok := root["Offset"]; ok {
		o, ok := off.([]int32)
		if !ok || len(o) != 3 {
			return nil, errors.New("the schematic's Offset is not three integers")
		}
		s.Offset = [3]int{int(o[0]), int(o[1]), int(o[2])}
	}
	palette, data := root["Palette"], root["BlockData"]
	entities := root["BlockEntities"]
	if version == 3 {
		blocks, ok := root["Blocks"].(map[string]any)
		if !ok {
			return nil, errors.New("the schematic (version 3) has no Blocks")
		}
		palette, data, entities = blocks["Palette"], blocks["Data"], blocks["BlockEntities"]
	}
	if err := s.readPalette(palette); err != nil {
		return nil, err
	}
	if max, ok := root["PaletteMax"].(int32); ok && version == 2 && int(max) != len(s.Palette) {
		return nil, fmt.Errorf("the schematic's PaletteMax is %d but its palette has %d states", max, len(s.Palette))
	}
	raw, ok := data.([]byte)
	if !ok {
		return nil, errors.New("the schematic has no block data (a byte array)")
	}
	if err := s.readBlocks(raw); err != nil {
		return nil, err
	}
	s.BlockEntities = listLen(entities)
	s.Entities = listLen(root["Entities"])
	return s, s.Check()
}

func listLen(v any) int {
	l, _ := v.([]any)
	return len(l)
}

func (s *Schematic) readPalette(v any) error {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return errors.New("the schematic has no palette")
	}
	if len(m) > s.Volume() {
		return fmt.Errorf("the schematic's palette has %d states for %d positions", len(m), s.Volume())
	}
	s.Palette = make([]string, len(m))
	filled := make([]bool, len(m))
	for state, idx := range m {
		i, ok := idx.(int32)
		if !ok || i < 0 || int(i) >= len(m) || filled[i] {
			return fmt.Errorf("the schematic's palette gives %q the index %v; indices must be 0–%d, each once", state, idx, len(m)-1)
		}
		if len(state) > mcdata.MaxStateText {
			return fmt.Errorf("a palette state of the schematic is %d characters long; at most %d are accepted", len(state), mcdata.MaxStateText)
		}
		s.Palette[i], filled[i] = state, true
	}
	return nil
}

// readBlocks reads one varint palette index per position, no more, no
// fewer.
func (s *Schematic) readBlocks(raw []byte) error {
	s.Blocks = make([]int, 0, s.Volume())
	for i := 0; i < len(raw); {
		v, shift := 0, 0
		for {
			if i >= len(raw) {
				return errors.New("the schematic's block data ends inside a number; the file is cut short")
			}
			b := raw[i]
			i++
			v |= int(b&0x7f) << shift
			if b&0x80 == 0 {
				break
			}
			shift += 7
			if shift >= 35 {
				return errors.New("the schematic's block data holds a number longer than five bytes")
			}
		}
		if v >= len(s.Palette) {
			return fmt.Errorf("a block of the schematic uses palette index %d of %d", v, len(s.Palette))
		}
		if len(s.Blocks) == s.Volume() {
			return fmt.Errorf("the schematic's block data holds more than its %d positions", s.Volume())
		}
		s.Blocks = append(s.Blocks, v)
	}
	if len(s.Blocks) != s.Volume() {
		return fmt.Errorf("the schematic's block data holds %d of its %d positions", len(s.Blocks), s.Volume())
	}
	return nil
}

// Encode writes the schematic as a Sponge version 2 file. The bytes are
// the same for the same schematic (sorted NBT keys, no gzip time stamp),
// so a file's SHA-256 names its content.
func Encode(s *Schematic) ([]byte, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	palette := make(map[string]any, len(s.Palette))
	for i, p := range s.Palette {
		if _, dup := palette[p]; dup {
			return nil, fmt.Errorf("the schematic's palette holds %q twice", p)
		}
		palette[p] = int32(i)
	}
	data := make([]byte, 0, len(s.Blocks))
	for _, b := range s.Blocks {
		for v := uint32(b); ; v >>= 7 {
			if v < 0x80 {
				data = append(data, byte(v))
				break
			}
			data = append(data, byte(v&0x7f|0x80))
		}
	}
	root := map[string]any{
		"Version":     int32(2),
		"DataVersion": int32(s.DataVersion),
		"Width":       int16(uint16(s.Width)),
		"Height":      int16(uint16(s.Height)),
		"Length":      int16(uint16(s.Length)),
		"Offset":      []int32{int32(s.Offset[0]), int32(s.Offset[1]), int32(s.Offset[2])},
		"PaletteMax":  int32(len(s.Palette)),
		"Palette":     palette,
		"BlockData":   data,
	}
	var body wire.Writer
	if err := body.NBT(root); err != nil {
		return nil, err
	}
	// File NBT: the type byte, the root's name, then the payload that the
	// network form writes after its type byte.
	var nbt bytes.Buffer
	nbt.Grow(len(body.B) + 12)
	nbt.WriteByte(10)
	nbt.Write([]byte{0, 9})
	nbt.WriteString("Schematic")
	nbt.Write(body.B[1:])
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	if _, err := zw.Write(nbt.Bytes()); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if out.Len() > MaxFileBytes {
		return nil, fmt.Errorf("the schematic compresses to %d bytes, more than the %d a file may hold", out.Len(), MaxFileBytes)
	}
	return out.Bytes(), nil
}

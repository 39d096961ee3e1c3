package peertest

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// ChunkCapture is one folder of testdata/chunks: the map_chunk packets a
// peer sent at one game version and prismarine-chunk's reading of them
// (testdata/chunks/README.md describes the files).
type ChunkCapture struct {
	Peer             string            `json:"peer"`
	Version          string            `json:"version"`
	Protocol         int               `json:"protocol"`
	DataVersion      string            `json:"dataVersion"`
	MinecraftData    string            `json:"minecraftData"`
	PrismarineChunk  string            `json:"prismarineChunk"`
	MapChunkPacketID int               `json:"mapChunkPacketId"`
	MinY             int               `json:"minY"`
	Height           int               `json:"height"`
	States           map[string]string `json:"states"` // state id → "name[prop=value,…]"
	Chunks           []CapturedChunk   `json:"chunks"`
}

// CapturedChunk is one chunk of a capture.
type CapturedChunk struct {
	X           int    `json:"x"`
	Z           int    `json:"z"`
	PacketFile  string `json:"packet"`
	StatesFile  string `json:"states"`
	BiomesFile  string `json:"biomes"`
	PacketBytes int    `json:"packetBytes"`
	ParsedBytes int    `json:"parsedBytes"`

	// Packet is the map_chunk packet as it arrived, decompressed: its
	// packet id (a VarInt) and then its fields.
	Packet []byte `json:"-"`
	// States are prismarine-chunk's block state ids, index
	// ((y-MinY)*16+z)*16+x.
	States []uint16 `json:"-"`
	// Biomes are prismarine-chunk's biome ids per 4×4×4 cell, index
	// (y4*4+z4)*4+x4 with y4 counted from MinY.
	Biomes []uint16 `json:"-"`
}

// Block returns prismarine-chunk's state id at x, y, z within the chunk
// (x, z in 0..15, y in MinY..MinY+Height-1).
func (c *CapturedChunk) Block(minY, x, y, z int) uint16 {
	return c.States[((y-minY)*16+z)*16+x]
}

// ChunkCaptureVersions lists the folders of testdata/chunks.
func ChunkCaptureVersions(t testing.TB) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(ModuleRoot(t), "testdata", "chunks"))
	if err != nil {
		t.Fatalf("peertest: %v", err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// LoadChunkCaptures reads testdata/chunks/<version>, failing the test if a
// file is missing or does not have the size its description says.
func LoadChunkCaptures(t testing.TB, version string) *ChunkCapture {
	t.Helper()
	c, err := loadChunkCaptures(filepath.Join(ModuleRoot(t), "testdata", "chunks", version))
	if err != nil {
		t.Fatalf("peertest: chunk captures of %s: %v", version, err)
	}
	return c
}

func loadChunkCaptures(dir string) (*ChunkCapture, error) {
	meta, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		return nil, err
	}
	var c ChunkCapture
	if err := json.Unmarshal(meta, &c); err != nil {
		return nil, fmt.Errorf("meta.json: %w", err)
	}
	if c.Height <= 0 || c.Height%16 != 0 || len(c.Chunks) == 0 {
		return nil, fmt.Errorf("meta.json: height %d and %d chunks make no capture", c.Height, len(c.Chunks))
	}
	for i := range c.Chunks {
		ch := &c.Chunks[i]
		if ch.Packet, err = gunzip(filepath.Join(dir, ch.PacketFile), 16<<20); err != nil {
			return nil, err
		}
		if len(ch.Packet) != ch.PacketBytes {
			return nil, fmt.Errorf("%s has %d bytes, meta.json says %d", ch.PacketFile, len(ch.Packet), ch.PacketBytes)
		}
		if ch.States, err = uint16s(filepath.Join(dir, ch.StatesFile), 16*16*c.Height); err != nil {
			return nil, err
		}
		if ch.Biomes, err = uint16s(filepath.Join(dir, ch.BiomesFile), 4*4*c.Height/4); err != nil {
			return nil, err
		}
	}
	return &c, nil
}

func gunzip(path string, limit int64) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	b, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s holds more than %d bytes", filepath.Base(path), limit)
	}
	return b, nil
}

func uint16s(path string, n int) ([]uint16, error) {
	b, err := gunzip(path, int64(2*n))
	if err != nil {
		return nil, err
	}
	if len(b) != 2*n {
		return nil, fmt.Errorf("%s has %d bytes, want %d (%d big-endian uint16)", filepath.Base(path), len(b), 2*n, n)
	}
	out := make([]uint16, n)
	for i := range out {
		out[i] = binary.BigEndian.Uint16(b[2*i:])
	}
	return out, nil
}

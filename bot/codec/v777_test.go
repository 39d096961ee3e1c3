package codec

import (
	"bytes"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// capturedChunk777 is the level_chunk_with_light frame that
// wupengabc/node-minecraft-protocol's test/protocol_26_3.test.js (commit
// bc32d3cc) keeps as "captured from an official 26.3 server", rebuilt here
// from its structure, field by field (the hex is a superflat column at
// x -1, z 0): the packet id 0x2e; three heightmaps, types 4, 1 and 5, of 37
// longs each, 36 of 0x0100804020100804 (seven heights of 4 to a long) and a
// last of 0x0000000020100804; section data of 0x8c4 (2244) bytes: the
// bottom section with 1024 blocks, no fluids, 4 bits a block over the
// palette 88, 10, 9, 0 (bedrock, dirt, grass_block[snowy=false], air) in
// layers of bedrock, two of dirt, grass and twelve of air, and the biome
// 0x29 alone, then 23 empty sections (no blocks, no fluids, air, biome
// 0x29); no block entities; and the light: a sky mask of the one byte 06,
// an empty block mask, an empty-sky mask of 01 and an empty-block mask of
// 07, two sky arrays of 2048 bytes (the bottom section's dark under its
// four solid layers, the next bright) and no block arrays. The masks are
// what 26.3 changed: a VarInt count of bytes, where 26.2 counted longs.
func capturedChunk777() []byte {
	var w wire.Writer
	w.Int32(-1)
	w.Int32(0)
	w.VarInt(3)
	for _, typ := range []int32{4, 1, 5} {
		w.VarInt(typ)
		w.VarInt(37)
		for range 36 {
			w.Int64(0x0100804020100804)
		}
		w.Int64(0x0000000020100804)
	}
	var data wire.Writer
	data.Int16(1024)
	data.Int16(0)
	data.Byte(4)
	data.VarInt(4)
	for _, s := range []int32{88, 10, 9, 0} {
		data.VarInt(s)
	}
	layer := func(index uint64, layers int) {
		word := uint64(0)
		for i := 0; i < 16; i++ {
			word |= index << (4 * i)
		}
		for range 16 * layers { // 256 blocks a layer, 16 to a long
			data.Int64(int64(word))
		}
	}
	layer(0, 1)
	layer(1, 2)
	layer(2, 1)
	layer(3, 12)
	data.Byte(0)
	data.VarInt(0x29)
	for range 23 {
		data.Int16(0)
		data.Int16(0)
		data.Byte(0)
		data.VarInt(0)
		data.Byte(0)
		data.VarInt(0x29)
	}
	w.VarInt(int32(len(data.B)))
	w.Raw(data.B)
	w.VarInt(0) // block entities
	for _, mask := range [][]byte{{0x06}, {}, {0x01}, {0x07}} {
		w.VarInt(int32(len(mask)))
		w.Raw(mask)
	}
	w.VarInt(2)
	w.VarInt(2048)
	w.Raw(append(bytes.Repeat([]byte{0}, 512), bytes.Repeat([]byte{0xff}, 1536)...))
	w.VarInt(2048)
	w.Raw(bytes.Repeat([]byte{0xff}, 2048))
	w.VarInt(0)
	return w.B
}

// TestCapturedChunk777: the bot reads the chunk a 26.3 server sent block
// for block, to its last byte; 26.2's layout, which counts the masks in
// longs, cannot.
func TestCapturedChunk777(t *testing.T) {
	body := capturedChunk777()
	if len(body) < 4 {
		t.Fatal("no frame")
	}
	c := For(777)
	if id, _ := c.Packets.ID(mcdata.ClientboundPlayMapChunk); id != 0x2e {
		t.Errorf("level_chunk_with_light is %#x in 26.3's table; the captured frame's id is 0x2e", id)
	}
	g := mcdata.Game(777)
	layout := world.Layout{Format: c.ChunkFormat, MinY: -64, Height: 384, NumStates: g.NumStates(), NumBiomes: 64}
	// x and z, 3 heightmaps of 1+1+296 bytes after their count, the
	// section data and its length, no block entities, the four masks (7
	// bytes), two sky arrays and their counts, no block arrays.
	if len(body) != 8+1+3*298+2+2244+1+7+1+2*(2+2048)+1 {
		t.Fatalf("the rebuilt frame is %d bytes", len(body))
	}
	r := wire.NewReader(body)
	ch, err := world.DecodeChunk(r, layout)
	if err != nil || r.Remaining() != 0 {
		t.Fatalf("26.3's captured chunk: %v, %d bytes left", err, r.Remaining())
	}
	if ch.Pos != (world.ChunkPos{X: -1, Z: 0}) || len(ch.Heightmaps) != 3 || len(ch.Sections) != 24 {
		t.Fatalf("chunk %+v with %d heightmaps and %d sections", ch.Pos, len(ch.Heightmaps), len(ch.Sections))
	}
	names := map[int]string{0: "bedrock", 1: "dirt", 2: "dirt", 3: "grass_block", 4: "air", 15: "air"}
	for y, want := range names {
		for _, xz := range [][2]int{{0, 0}, {15, 15}, {7, 3}} {
			s := ch.Sections[0].Block(xz[0], y, xz[1])
			if b := g.BlockOf(s); b == nil || b.Name != want {
				t.Errorf("block at %d,%d,%d is %v, want %s", xz[0], y-64, xz[1], b, want)
			}
		}
	}
	if st, ok := g.StateByID(ch.Sections[0].Block(0, 3, 0)); !ok || st.ID != 9 {
		t.Errorf("the grass is %v, want grass_block[snowy=false], state 9", st)
	}
	for i := 1; i < 24; i++ {
		if s, single := ch.Sections[i].Single(); !single || !g.IsAir(s) {
			t.Errorf("section %d is not all air", i)
		}
	}

	old := For(776)
	r = wire.NewReader(body)
	if _, err := world.DecodeChunk(r, world.Layout{Format: old.ChunkFormat, MinY: -64, Height: 384, NumStates: g.NumStates(), NumBiomes: 64}); err == nil && r.Remaining() == 0 {
		t.Error("26.2's layout reads 26.3's light masks as if they were longs, and finds nothing wrong")
	}
}

// TestPacketIDs777: the ids GameProtocols and ConfigurationProtocols give
// 26.3's packets, which Mojang's packets report (through
// Euphillya/Fidorial) and the captured frames (0x2e, 0x4b) agree with.
func TestPacketIDs777(t *testing.T) {
	tbl := For(777).Packets
	for p, want := range map[mcdata.Packet]int32{
		mcdata.ClientboundPlayAddTransientBlock: 0x25,
		mcdata.ClientboundPlayUnloadChunk:       0x26,
		mcdata.ClientboundPlayMapChunk:          0x2e,
		mcdata.ClientboundPlayLogin:             0x32,
		mcdata.ClientboundPlayRecipeBookAdd:     0x4b,
		mcdata.ClientboundPlayPostEffects:       0x53,
		mcdata.ClientboundPlaySwingAnimation:    0x7b,
		mcdata.ClientboundPlayServerLinks:       0x8c,
		mcdata.ClientboundPlayShowDialog:        0x8f,
		mcdata.ClientboundConfigPostEffects:     0x0a,
		mcdata.ClientboundConfigCodeOfConduct:   0x14,
		mcdata.ServerboundPlayTeleportConfirm:   0x00,
		mcdata.ServerboundPlayBlockDig:          0x29,
		mcdata.ServerboundPlayPong:              0x2d,
		mcdata.ServerboundPlayPunch:             0x2e,
		mcdata.ServerboundPlayBlockPlace:        0x42,
		mcdata.ServerboundPlayCustomClickAction: 0x44,
	} {
		if id, ok := tbl.ID(p); !ok || id != want {
			t.Errorf("%s is %#x (%v), want %#x", p.Name(), id, ok, want)
		}
	}
	if _, ok := tbl.ID(mcdata.ServerboundPlayArmAnimation); ok {
		t.Error("26.3 still has the serverbound swing; punch replaced it")
	}
}

// TestLayouts777 reads and writes 26.3's changed packets from bytes made by
// the decompiled game's layouts.
func TestLayouts777(t *testing.T) {
	c := For(777)

	// Spawn info: creative (a VarInt 1), no previous game mode (0).
	var w wire.Writer
	w.VarInt(2)
	w.String("minecraft:overworld")
	w.Int64(-5)
	w.VarInt(1)
	w.VarInt(0)
	w.Bool(false)
	w.Bool(true)
	w.Bool(false)
	w.VarInt(3)
	w.VarInt(63)
	r := wire.NewReader(w.B)
	s := c.SpawnInfo(r)
	if r.Err() != nil || r.Remaining() != 0 || s.GameMode != 1 || s.PreviousGameMode != -1 || !s.Flat || s.PortalCooldown != 3 || s.SeaLevel != 63 {
		t.Errorf("spawn info %+v, %v, %d left", s, r.Err(), r.Remaining())
	}
	// Previous game mode spectator is 3+1.
	w.B[len("minecraft:overworld")+1+1+8+1] = 4
	r = wire.NewReader(w.B)
	if s := c.SpawnInfo(r); s.PreviousGameMode != 3 {
		t.Errorf("previous game mode %d, want 3", s.PreviousGameMode)
	}

	// Teleport confirmation: the id, the position, the rotation.
	w = wire.Writer{}
	c.WriteTeleportConfirm(&w, TeleportConfirm{ID: 300, X: 1.5, Y: -60, Z: 2.25, Yaw: 90, Pitch: -10})
	r = wire.NewReader(w.B)
	if id, x, y, z, yaw, pitch := r.VarInt(), r.Float64(), r.Float64(), r.Float64(), r.Float32(), r.Float32(); id != 300 || x != 1.5 || y != -60 || z != 2.25 || yaw != 90 || pitch != -10 || r.Remaining() != 0 {
		t.Errorf("teleport confirm % x", w.B)
	}

	// Player actions from abort on are one higher; start stays 0.
	for status, want := range map[int32]int32{ActionStartDigging: 0, ActionAbortDigging: 2, ActionStopDigging: 3, ActionDropStack: 4, ActionDropItem: 5, ActionReleaseUse: 6, ActionSwapHands: 7} {
		w = wire.Writer{}
		c.WritePlayerAction(&w, PlayerAction{Status: status, Pos: BlockPos{1, 2, 3}, Face: FaceUp, Sequence: 9})
		if got := wire.NewReader(w.B).VarInt(); got != want {
			t.Errorf("action %d is written %d, want %d", status, got, want)
		}
	}

	// A move of two steps: the deltas add up; on ground is bit 0.
	w = wire.Writer{}
	w.VarInt(42)
	w.VarInt(1 | 2<<1)
	for _, d := range [][3]int16{{4096, 0, -2048}, {2048, 1, 0}} {
		w.VarInt(1)
		w.Int16(d[0])
		w.Int16(d[1])
		w.Int16(d[2])
	}
	w.Int8(64)
	w.Int8(0)
	r = wire.NewReader(w.B)
	m := c.EntityMoveLook(r)
	if r.Err() != nil || r.Remaining() != 0 || m.EntityID != 42 || !m.OnGround || m.DX != 1.5 || m.DY != 1.0/4096 || m.DZ != -0.5 || m.Yaw != 90 {
		t.Errorf("stepped move %+v, %v", m, r.Err())
	}
	// More steps than the bytes could hold is refused, not read.
	r = wire.NewReader([]byte{42, 200, 1, 0, 0})
	if c.EntityMove(r); r.Err() == nil {
		t.Error("a move of 100 steps in 3 bytes was read")
	}

	// A stepped position sync ends at its last step.
	w = wire.Writer{}
	w.VarInt(7)
	w.VarInt(1)
	w.VarInt(2)
	for _, p := range [][3]float64{{1, 2, 3}, {4, 5, 6}} {
		w.Float64(p[0])
		w.Float64(p[1])
		w.Float64(p[2])
		w.VarInt(1)
	}
	w.Float32(45)
	w.Float32(5)
	w.Bool(true)
	r = wire.NewReader(w.B)
	tp := c.SyncEntityPosition(r)
	if r.Err() != nil || r.Remaining() != 0 || tp.X != 4 || tp.Y != 5 || tp.Z != 6 || tp.Yaw != 45 || !tp.OnGround || tp.HasVelocity {
		t.Errorf("stepped sync %+v, %v", tp, r.Err())
	}

	// A partly filtered chat mask is a byte count and bytes.
	r = wire.NewReader([]byte{2, 0xff, 0x01, 0x99})
	c.SkipFilterMask(r)
	if r.Remaining() != 1 {
		t.Errorf("the filter mask left %d bytes, want 1", r.Remaining())
	}
}

// TestChunkCapturesMatchPrismarineChunk decodes every chunk packet a peer
// sent (testdata/chunks: flying-squid and mpserver, 26.3's on the emitted
// dataset with its byte light masks) with the version's codec and compares
// it block for block and biome for biome with prismarine-chunk's reading
// of the same bytes; the decoder must end exactly at the packet's end.
func TestChunkCapturesMatchPrismarineChunk(t *testing.T) {
	for _, v := range peertest.ChunkCaptureVersions(t) {
		t.Run(v, func(t *testing.T) {
			capt := peertest.LoadChunkCaptures(t, v)
			c := For(int32(capt.Protocol))
			g := mcdata.Game(int32(capt.Protocol))
			if c == nil || g == nil {
				t.Fatalf("capture of protocol %d, which the bot does not speak", capt.Protocol)
			}
			// The peers send the vanilla biome registry (minecraft-data's), whose
			// size sets the bits of a direct biome palette.
			layout := world.Layout{Format: c.ChunkFormat, MinY: capt.MinY, Height: capt.Height, NumStates: g.NumStates(), NumBiomes: len(g.Biomes)}
			for _, ch := range capt.Chunks {
				r := wire.NewReader(ch.Packet)
				if id := r.VarInt(); id != int32(capt.MapChunkPacketID) {
					t.Fatalf("chunk %d %d: packet id %d", ch.X, ch.Z, id)
				}
				got, err := world.DecodeChunk(r, layout)
				if err != nil || r.Remaining() != 0 {
					t.Fatalf("chunk %d %d: %v, %d bytes left", ch.X, ch.Z, err, r.Remaining())
				}
				diffs := 0
				for y := 0; y < capt.Height && diffs < 5; y++ {
					s := got.Sections[y>>4]
					for z := 0; z < 16; z++ {
						for x := 0; x < 16; x++ {
							want := ch.Block(capt.MinY, x, capt.MinY+y, z)
							if b := s.Block(x, y&15, z); uint16(b) != want {
								t.Errorf("chunk %d %d: block %d,%d,%d is %d, prismarine-chunk reads %d", ch.X, ch.Z, x, capt.MinY+y, z, b, want)
								diffs++
							}
						}
					}
				}
				for i, want := range ch.Biomes {
					x4, z4, y4 := i&3, (i>>2)&3, i>>4
					if b := got.Sections[y4>>2].Biome(x4*4, (y4&3)*4, z4*4); b != int32(want) {
						t.Errorf("chunk %d %d: biome cell %d is %d, prismarine-chunk reads %d", ch.X, ch.Z, i, b, want)
						break
					}
				}
			}
		})
	}
}

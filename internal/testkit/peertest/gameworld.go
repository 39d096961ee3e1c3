package peertest

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// GameWorldVersions are the versions StartGameWorld serves: 1.21.1 as the
// game saved the region, 1.21.3 and 1.21.4 converted by block name.
var GameWorldVersions = []string{"1.21.1", "1.21.3", "1.21.4"}

// GameWorldOptions configures StartGameWorld. Zero values pick the game's
// defaults.
type GameWorldOptions struct {
	// TicksPerSecond is the survival plugin's game tick rate (0: 20).
	TicksPerSecond int
	// ViewDistance is the server's view distance in chunks (0: 4, which
	// from the spawn covers the whole land). Chunks follow a player as the
	// game sends them (testdata/peers/gamerules.js): at 2 the land's far
	// corners are out of view from the spawn and arrive as a player walks.
	ViewDistance int
}

// GameWorld is a flying-squid server with the survival plugin's rules
// serving a world the game generated: the region file prismarine-provider-
// anvil ships (test/fixtures/1.21.1/r.0.0.mca), 6×6 chunks of forest by a
// lake, with hills, caves and ores, and nothing (air) around it. Water
// flows there as the game's does, and chunks follow a walking player as
// the game sends them. See testdata/peers/gameworld.js, gamerules.js,
// survival/fluids.js and the README's "A world the game made".
//
// Facts are found by reading the served region (never typed in); Block
// tells what prismarine-chunk reads at any position of the land, as the
// game made it (before anything in the running server changed it: ask
// Query("block", x, y, z) for the server's present state).
//
// Players that are usually in the world before the bot: start them with
// StartSurvivor (mineflayer, with dig, blockAt, players …) or StartPlayer
// before the bot joins; they appear at the spawn, as the bot will.
type GameWorld struct {
	*SurvivalServer
	Facts WorldFacts
	// Folder holds the world the server reads and saves (region/,
	// level.dat, playerdata/) and the survey's files.
	Folder string

	blocks []uint16
	states map[uint16]string
}

// WorldFacts is what gameworld.js found in the region (facts.json).
// Positions are block coordinates [x, y, z]; distances are from the
// spawn, in blocks.
type WorldFacts struct {
	Version    string `json:"version"`
	Source     string `json:"source"` // the region file, relative to testdata/peers
	Conversion struct {
		From        string `json:"from"`
		To          string `json:"to"`
		DataVersion int    `json:"dataVersion"`
		States      int    `json:"states"`     // distinct block states converted (0 at 1.21.1)
		Renumbered  int    `json:"renumbered"` // of them, how many have another state id at To
	} `json:"conversion"`
	MinY   int `json:"minY"`
	Height int `json:"height"`
	// Land is the part of the region that holds blocks (the rest is air).
	Land struct {
		MinX   int      `json:"minX"`
		MinZ   int      `json:"minZ"`
		MaxX   int      `json:"maxX"`
		MaxZ   int      `json:"maxZ"`
		Chunks [][2]int `json:"chunks"`
	} `json:"land"`
	// Spawn is the block every player's feet appear in (in its middle):
	// a grass block with the sky over it, an oak trunk within 3 to 6
	// blocks and the lake within 16, nearest the middle of the land.
	Spawn     [3]int         `json:"spawn"`
	Trees     []Tree         `json:"trees"` // nearest the spawn first
	Lakes     []Lake         `json:"lakes"` // largest first
	Caves     []Cave         `json:"caves"` // largest first (at most 8)
	CaveCount int            `json:"caveCount"`
	Ores      map[string]Ore `json:"ores"`   // coal_ore, iron_ore, deepslate_iron_ore, gravel …
	Counts    map[string]int `json:"counts"` // every block name in the land
	Surface   struct {
		Y     []int    `json:"y"`     // per column: the ground or water top (not plants, leaves, logs)
		Top   []int    `json:"top"`   // per column: the highest block that is not air
		Names []string `json:"names"` // the surface blocks' names
		Block []int    `json:"block"` // per column: index into Names
	} `json:"surface"`
}

// Tree is one tree: logs joined face, edge or corner to corner.
type Tree struct {
	Kind     string  `json:"kind"` // oak_log, birch_log …
	Base     [3]int  `json:"base"` // the lowest log
	Top      int     `json:"top"`  // the highest log's y
	Logs     int     `json:"logs"`
	Ground   string  `json:"ground"` // the block under Base
	Distance float64 `json:"distance"`
}

// Lake is one body of water joined face to face, from the surface.
type Lake struct {
	Blocks         int     `json:"blocks"`
	Sources        int     `json:"sources"`
	SurfaceY       int     `json:"surfaceY"`
	Min            [3]int  `json:"min"`
	Max            [3]int  `json:"max"`
	SurfaceColumns int     `json:"surfaceColumns"`
	Deepest        int     `json:"deepest"`
	Nearest        [3]int  `json:"nearest"` // its surface block nearest the spawn
	Distance       float64 `json:"distance"`
	// Shore is the standable block (feet) beside the water nearest the
	// spawn.
	Shore [3]int `json:"shore"`
}

// Cave is air below the surface joined face to face.
type Cave struct {
	Blocks   int     `json:"blocks"`
	Min      [3]int  `json:"min"`
	Max      [3]int  `json:"max"`
	Open     bool    `json:"open"`     // the sky's air reaches it
	Entrance *[3]int `json:"entrance"` // where, nearest the spawn (nil when closed)
	Nearest  [3]int  `json:"nearest"`  // its air nearest the spawn
	Distance float64 `json:"distance"`
}

// Ore is what the survey found of one block kind (ores and gravel).
type Ore struct {
	Count   int `json:"count"`
	Exposed int `json:"exposed"` // with a face on air
	Open    int `json:"open"`    // with a face on air the sky reaches
	// The nearest of each kind to the spawn (nil when there is none).
	NearestOpen    *OreBlock `json:"nearestOpen"`
	NearestExposed *OreBlock `json:"nearestExposed"`
	NearestBuried  *OreBlock `json:"nearestBuried"`
}

// OreBlock is one block of an Ore.
type OreBlock struct {
	Position [3]int  `json:"position"`
	Air      *[3]int `json:"air"` // the air block its open face touches
	Distance float64 `json:"distance"`
	Depth    int     `json:"depth"` // blocks below its column's surface
}

// StartGameWorld prepares the game-made world for version (converting
// the region for 1.21.3 and 1.21.4 and surveying it, a few seconds) in a
// folder of the test's own, starts the server on it and returns once it
// accepts logins. It is stopped in t.Cleanup.
func StartGameWorld(t testing.TB, version string, opts GameWorldOptions) *GameWorld {
	t.Helper()
	served := false
	for _, v := range GameWorldVersions {
		served = served || v == version
	}
	if !served {
		t.Fatalf("peertest: the game-made world is served at %v, not %q", GameWorldVersions, version)
	}
	if opts.ViewDistance <= 0 {
		opts.ViewDistance = 4
	}
	NodeBinary(t)
	dir := t.TempDir()
	prep, _ := json.Marshal(map[string]string{"version": version, "folder": dir})
	RunNode(t, "gameworld.js", "prepare", string(prep))
	w := &GameWorld{Folder: dir}
	if err := w.load(); err != nil {
		t.Fatalf("peertest: the game-made world at %s: %v", version, err)
	}
	type survivalConfig struct {
		TicksPerSecond int `json:"ticksPerSecond,omitempty"`
	}
	type worldConfig struct {
		Folder string `json:"folder"`
		Spawn  [3]int `json:"spawn"`
	}
	cfg := struct {
		Version      string         `json:"version"`
		MOTD         string         `json:"motd"`
		ViewDistance int            `json:"viewDistance"`
		Survival     survivalConfig `json:"survival"`
		World        worldConfig    `json:"world"`
	}{version, "blockmate game-made world", opts.ViewDistance, survivalConfig{opts.TicksPerSecond}, worldConfig{dir, w.Facts.Spawn}}
	w.SurvivalServer = startSurvival(t, "game world "+version, version, cfg)
	return w
}

func (w *GameWorld) load() error {
	raw, err := os.ReadFile(filepath.Join(w.Folder, "facts.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, &w.Facts); err != nil {
		return fmt.Errorf("facts.json: %w", err)
	}
	raw, err = os.ReadFile(filepath.Join(w.Folder, "states.json"))
	if err != nil {
		return err
	}
	var states map[string]string
	if err := json.Unmarshal(raw, &states); err != nil {
		return fmt.Errorf("states.json: %w", err)
	}
	w.states = map[uint16]string{}
	for k, v := range states {
		id, err := strconv.Atoi(k)
		if err != nil {
			return fmt.Errorf("states.json: state id %q", k)
		}
		w.states[uint16(id)] = v
	}
	raw, err = os.ReadFile(filepath.Join(w.Folder, "blocks.bin"))
	if err != nil {
		return err
	}
	f := &w.Facts
	n := (f.Land.MaxX - f.Land.MinX + 1) * (f.Land.MaxZ - f.Land.MinZ + 1) * f.Height
	if len(raw) != 2*n {
		return fmt.Errorf("blocks.bin has %d bytes, want %d", len(raw), 2*n)
	}
	w.blocks = make([]uint16, n)
	for i := range w.blocks {
		w.blocks[i] = binary.BigEndian.Uint16(raw[2*i:])
	}
	return nil
}

// InLand reports whether x, z is in the land (the chunks with blocks).
func (w *GameWorld) InLand(x, z int) bool {
	l := w.Facts.Land
	return x >= l.MinX && x <= l.MaxX && z >= l.MinZ && z <= l.MaxZ
}

// Block is the block state at x, y, z as prismarine-chunk reads the
// served region, "name[prop=value,…]" with the properties sorted (e.g.
// "oak_log[axis=y]", "grass_block[snowy=false]", "stone"); "air" outside
// the land. It is the world as the game made it, before the server ran.
func (w *GameWorld) Block(x, y, z int) string {
	f := &w.Facts
	if !w.InLand(x, z) || y < f.MinY || y >= f.MinY+f.Height {
		return "air"
	}
	width := f.Land.MaxX - f.Land.MinX + 1
	depth := f.Land.MaxZ - f.Land.MinZ + 1
	return w.states[w.blocks[((y-f.MinY)*depth+(z-f.Land.MinZ))*width+(x-f.Land.MinX)]]
}

// BlockName is Block without the properties.
func (w *GameWorld) BlockName(x, y, z int) string {
	name, _, _ := strings.Cut(w.Block(x, y, z), "[")
	return name
}

// Surface is the y of the ground (or water top) of the column x, z and
// its block's name: the highest block that is not air, a plant, leaves
// or a log. ok is false outside the land.
func (w *GameWorld) Surface(x, z int) (y int, block string, ok bool) {
	if !w.InLand(x, z) {
		return 0, "", false
	}
	l := w.Facts.Land
	i := (z-l.MinZ)*(l.MaxX-l.MinX+1) + (x - l.MinX)
	return w.Facts.Surface.Y[i], w.Facts.Surface.Names[w.Facts.Surface.Block[i]], true
}

// Teleport moves a player (the survival plugin's console tp). y is the
// feet's.
func (w *GameWorld) Teleport(username string, x, y, z float64) error {
	return w.Command(fmt.Sprintf("survival tp %s %v %v %v", username, x, y, z))
}

// Give puts count of item in a player's inventory (the survival plugin's
// /give: whole stacks, the rest dropped at the player).
func (w *GameWorld) Give(username, item string, count int) error {
	return w.Command(fmt.Sprintf("give %s %s %d", username, item, count))
}

// Joined reports whether the server has ended the player's login (its
// first movement packet arrived): from then on it is in the world.
func (w *GameWorld) Joined(ctx context.Context, username string) (bool, error) {
	var p struct {
		Joined bool `json:"joined"`
	}
	if err := w.Query(ctx, &p, "player", username); err != nil {
		return false, err
	}
	return p.Joined, nil
}

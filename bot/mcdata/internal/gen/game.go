package gen

// The static game data step: blocks and their states, collision shapes,
// items, foods, tool materials, entities, enchantments, effects, recipes
// and biomes, per data version, from the pinned minecraft-data.
//
// Each data version is cut into parts, one per kind of data. A part is
// encoded in a small binary form (the layout is written next to each
// encoder below and mirrored by bot/mcdata/game_load.go), identical parts
// of several versions are kept once, and every distinct part is
// deflate-compressed into game_data.bin. game_gen.go says where each part
// sits in the blob and which parts each data version uses, so that the bot
// inflates only the parts of the version it joined, the first time it asks.

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"go/format"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// GameProtocols are the protocols the static game data covers, oldest
// first. The packet tables (Protocols) still stop at 769 on this branch
// while another change extends them to 775; the game data runs ahead so the
// world, physics and inventory work can start on every version. Once
// Protocols reaches 775, this list is Protocols itself (a test checks that
// Protocols never lists a protocol missing here).
var GameProtocols = []int{767, 768, 769, 770, 771, 772, 773, 774, 775}

// gameKinds are the parts a data version is cut into, in the order of the
// mcdata part constants (gamePartBlocks …). file is the dataPaths.json key
// naming the minecraft-data file the part comes from.
var gameKinds = []struct{ name, file string }{
	{"Blocks", "blocks"},
	{"Shapes", "blockCollisionShapes"},
	{"Items", "items"},
	{"Foods", "foods"},
	{"Materials", "materials"},
	{"Entities", "entities"},
	{"Enchantments", "enchantments"},
	{"Effects", "effects"},
	{"Recipes", "recipes"},
	{"Biomes", "biomes"},
}

// FoodSaturationScaled lists the foods.json folders whose "saturation" is
// the game's saturation multiplied by twice the food points (bread: 60
// instead of 6, golden carrot 172.8 instead of 14.4; the game computes
// saturation = nutrition × modifier × 2, 6.0 for bread, see FoodProperties
// and the wiki's Food page). The generator divides those values back and
// checks both ways: a listed folder must have the inflated values and an
// unlisted one must not, so a fixed minecraft-data fails the generator
// until the folder is dropped from this list.
var FoodSaturationScaled = []string{"pc/1.21.4", "pc/1.21.5", "pc/1.21.6", "pc/1.21.8", "pc/1.21.9", "pc/1.21.11"}

// maxSaturationPerPoint is the highest saturation per food point the game
// gives (golden carrot and suspicious stew: modifier 1.2, so 2.4 per point).
const maxSaturationPerPoint = 2.4

// gameRelease is one protocol's data: the game version whose minecraft-data
// folders it uses and, per part kind, the folder.
type gameRelease struct {
	protocol int
	version  string   // newest game version of the protocol that dataPaths.json lists
	folders  []string // per gameKinds entry, e.g. "pc/1.20.5"
	tints    string   // the tints.json folder, read with biomes
}

func gameReleases(dataDir string) ([]gameRelease, error) {
	var versions []struct {
		MinecraftVersion string
		Version          int
		ReleaseType      string
	}
	if err := readJSON(filepath.Join(dataDir, "pc", "common", "protocolVersions.json"), &versions); err != nil {
		return nil, err
	}
	var paths struct {
		PC map[string]map[string]string `json:"pc"`
	}
	if err := readJSON(filepath.Join(dataDir, "dataPaths.json"), &paths); err != nil {
		return nil, err
	}
	var out []gameRelease
	for _, p := range GameProtocols {
		r := gameRelease{protocol: p}
		// The file lists newest first: the first release with a dataPaths
		// entry is the newest game version of the protocol minecraft-data has.
		for _, v := range versions {
			if v.Version != p || v.ReleaseType != "release" {
				continue
			}
			if dp, ok := paths.PC[v.MinecraftVersion]; ok {
				r.version = v.MinecraftVersion
				for _, k := range gameKinds {
					if dp[k.file] == "" {
						return nil, fmt.Errorf("minecraft-data's dataPaths.json has no %s for %s", k.file, v.MinecraftVersion)
					}
					r.folders = append(r.folders, dp[k.file])
				}
				r.tints = dp["tints"]
				break
			}
		}
		if r.version == "" {
			return nil, fmt.Errorf("minecraft-data has no data for protocol %d", p)
		}
		out = append(out, r)
	}
	return out, nil
}

// gamePart is one distinct encoded part.
type gamePart struct {
	kind    int
	raw     []byte
	folders []string // every folder (per release) that produced it
}

// generateGame returns game_gen.go and game_data.bin.
func generateGame(dataDir, version string) (map[string][]byte, error) {
	releases, err := gameReleases(dataDir)
	if err != nil {
		return nil, err
	}
	var parts []*gamePart
	seen := map[[32]byte]int{}
	uses := make([][]int, len(releases)) // release → part index per kind
	for ri, r := range releases {
		src, err := loadGameSource(dataDir, r)
		if err != nil {
			return nil, fmt.Errorf("game data for %s: %w", r.version, err)
		}
		encoded, err := src.encode()
		if err != nil {
			return nil, fmt.Errorf("game data for %s: %w", r.version, err)
		}
		for k, raw := range encoded {
			key := sha256.Sum256(append([]byte{byte(k)}, raw...))
			i, ok := seen[key]
			if !ok {
				i = len(parts)
				seen[key] = i
				parts = append(parts, &gamePart{kind: k, raw: raw})
			}
			if f := r.folders[k]; !contains(parts[i].folders, f) {
				parts[i].folders = append(parts[i].folders, f)
			}
			uses[ri] = append(uses[ri], i)
		}
	}

	var blob bytes.Buffer
	var index bytes.Buffer
	fmt.Fprintf(&index, "// Code generated by bot/mcdata/gen from minecraft-data %s; DO NOT EDIT.\n\n", version)
	index.WriteString("package mcdata\n\n")
	index.WriteString("// gameParts locates each distinct part of the static game data in\n// game_data.bin: offset and length of its deflate stream, its inflated size,\n// and the minecraft-data folders it was built from.\n")
	index.WriteString("var gameParts = [...]gamePartRef{\n")
	totalRaw := 0
	for _, p := range parts {
		var z bytes.Buffer
		w, err := flate.NewWriter(&z, flate.BestCompression)
		if err != nil {
			return nil, err
		}
		w.Write(p.raw)
		if err := w.Close(); err != nil {
			return nil, err
		}
		fmt.Fprintf(&index, "\t{kind: gamePart%s, off: %d, size: %d, raw: %d}, // %s\n",
			gameKinds[p.kind].name, blob.Len(), z.Len(), len(p.raw), strings.Join(p.folders, ", "))
		blob.Write(z.Bytes())
		totalRaw += len(p.raw)
	}
	index.WriteString("}\n\n")
	fmt.Fprintf(&index, "// game_data.bin holds %d parts: %d bytes compressed, %d inflated.\n\n", len(parts), blob.Len(), totalRaw)
	index.WriteString("// gameVersions lists the distinct data versions: the protocols that use\n// one, the newest game version among them, and the index in gameParts of\n// each of its parts.\n")
	index.WriteString("var gameVersions = [...]gameVersionRef{\n")
	for ri := 0; ri < len(releases); {
		same := ri + 1 // protocols in a row with the very same parts share one entry
		for same < len(releases) && fmt.Sprint(uses[same]) == fmt.Sprint(uses[ri]) {
			same++
		}
		var protos []string
		for _, r := range releases[ri:same] {
			protos = append(protos, strconv.Itoa(r.protocol))
		}
		fmt.Fprintf(&index, "\t{protocols: []int32{%s}, version: %q, parts: [numGameParts]uint16{", strings.Join(protos, ", "), releases[same-1].version)
		for k, i := range uses[ri] {
			if k > 0 {
				index.WriteString(", ")
			}
			fmt.Fprintf(&index, "%d", i)
		}
		index.WriteString("}},\n")
		ri = same
	}
	index.WriteString("}\n")
	src, err := format.Source(index.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting game_gen.go: %w\n%s", err, index.Bytes())
	}
	return map[string][]byte{"game_gen.go": src, "game_data.bin": blob.Bytes()}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// The minecraft-data shapes the step reads.
type (
	mdBlock struct {
		ID           int
		Name         string
		DisplayName  string
		Hardness     *float64
		Resistance   float64
		Diggable     bool
		Material     string
		Transparent  bool
		EmitLight    int
		FilterLight  int
		DefaultState int
		MinStateID   int
		MaxStateID   int
		States       []mdProp
		HarvestTools map[string]bool
		Drops        []int
	}
	mdProp struct {
		Name      string
		Type      string
		NumValues int `json:"num_values"`
		Values    []string
	}
	mdShapes struct {
		Blocks map[string]json.RawMessage
		Shapes map[string][][6]float64
	}
	mdItem struct {
		ID            int
		Name          string
		DisplayName   string
		StackSize     int
		MaxDurability int
	}
	mdFood struct {
		Name       string
		FoodPoints float64
		Saturation float64
	}
	mdEntity struct {
		ID          int
		Name        string
		DisplayName string
		Type        string
		Category    string
		Width       float64
		Height      float64
	}
	mdEnchantment struct {
		ID          int
		Name        string
		DisplayName string
		MaxLevel    int
		Category    string
		Curse       bool
	}
	mdEffect struct {
		ID          int
		Name        string
		DisplayName string
		Type        string
	}
	mdRecipe struct {
		InShape     [][]*int
		Ingredients []int
		Result      struct{ ID, Count int }
	}
	mdBiome struct {
		ID               int
		Name             string
		DisplayName      string
		Category         string
		Temperature      float64
		HasPrecipitation bool `json:"has_precipitation"`
		Dimension        string
		Color            int64
	}
	mdTints map[string]struct {
		Data []struct {
			Keys  []json.RawMessage
			Color int64
		}
	}
)

// gameSource is one release's data as read from minecraft-data.
type gameSource struct {
	release      gameRelease
	blocks       []mdBlock
	shapes       mdShapes
	items        []mdItem
	foods        []mdFood
	materials    map[string]map[string]float64
	entities     []mdEntity
	enchantments []mdEnchantment
	effects      []mdEffect
	recipes      map[string][]mdRecipe
	biomes       []mdBiome
	tints        mdTints
}

func loadGameSource(dataDir string, r gameRelease) (*gameSource, error) {
	s := &gameSource{release: r}
	file := func(kind int) string {
		return filepath.Join(dataDir, filepath.FromSlash(r.folders[kind]), gameKinds[kind].file+".json")
	}
	targets := []any{&s.blocks, &s.shapes, &s.items, &s.foods, &s.materials, &s.entities, &s.enchantments, &s.effects, &s.recipes, &s.biomes}
	for k, v := range targets {
		if err := readJSON(file(k), v); err != nil {
			return nil, err
		}
	}
	if err := readJSON(filepath.Join(dataDir, filepath.FromSlash(r.tints), "tints.json"), &s.tints); err != nil {
		return nil, err
	}
	return s, nil
}

// enc writes the parts' binary form: unsigned varints, strings as a length
// and bytes, float64 as 8 little-endian bytes.
type enc struct{ b []byte }

func (e *enc) uint(v int) {
	if v < 0 {
		panic(fmt.Sprintf("gen: negative value %d in an unsigned field", v))
	}
	e.b = binary.AppendUvarint(e.b, uint64(v))
}
func (e *enc) str(s string) { e.uint(len(s)); e.b = append(e.b, s...) }
func (e *enc) f64(f float64) {
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(f))
}
func (e *enc) bool(v bool) {
	if v {
		e.uint(1)
	} else {
		e.uint(0)
	}
}

// encode validates the release's data and encodes each part.
func (s *gameSource) encode() ([][]byte, error) {
	items := map[string]int{}
	for i, it := range s.items {
		if it.ID != i {
			return nil, fmt.Errorf("items.json: item %s has id %d at index %d", it.Name, it.ID, i)
		}
		items[it.Name] = i
	}
	itemID := func(what string, id int) error {
		if id < 0 || id >= len(s.items) {
			return fmt.Errorf("%s names item id %d; the version has %d items", what, id, len(s.items))
		}
		return nil
	}
	out := make([][]byte, len(gameKinds))
	var err error
	if out[0], err = s.encodeBlocks(itemID); err != nil {
		return nil, err
	}
	if out[1], err = s.encodeShapes(); err != nil {
		return nil, err
	}
	out[2] = s.encodeItems()
	if out[3], err = s.encodeFoods(items); err != nil {
		return nil, err
	}
	if out[4], err = s.encodeMaterials(itemID); err != nil {
		return nil, err
	}
	if out[5], err = s.encodeEntities(); err != nil {
		return nil, err
	}
	if out[6], err = s.encodeEnchantments(); err != nil {
		return nil, err
	}
	if out[7], err = s.encodeEffects(); err != nil {
		return nil, err
	}
	if out[8], err = s.encodeRecipes(itemID); err != nil {
		return nil, err
	}
	if out[9], err = s.encodeBiomes(); err != nil {
		return nil, err
	}
	return out, nil
}

// Blocks part:
//
//	count
//	per block, in id order (ids are 0…count-1, states contiguous from 0):
//	  name, displayName, stateCount, defaultState-minState,
//	  propCount, per property: name, kind (0 enum, 1 bool, 2 int), valueCount,
//	    the values' strings (none for bool: true then false, the game's order)
//	  hardness, resistance (f64), flags (1 diggable, 2 transparent),
//	  emitLight, filterLight, material name,
//	  harvestToolCount, item ids ascending, dropCount, item ids
func (s *gameSource) encodeBlocks(itemID func(string, int) error) ([]byte, error) {
	var e enc
	e.uint(len(s.blocks))
	next := 0
	for i, b := range s.blocks {
		if b.ID != i {
			return nil, fmt.Errorf("blocks.json: block %s has id %d at index %d", b.Name, b.ID, i)
		}
		if b.MinStateID != next {
			return nil, fmt.Errorf("blocks.json: %s starts at state %d, want %d (states must be contiguous)", b.Name, b.MinStateID, next)
		}
		count := 1
		for _, p := range b.States {
			count *= p.NumValues
		}
		if b.MaxStateID-b.MinStateID+1 != count {
			return nil, fmt.Errorf("blocks.json: %s has %d states but its properties make %d", b.Name, b.MaxStateID-b.MinStateID+1, count)
		}
		if b.DefaultState < b.MinStateID || b.DefaultState > b.MaxStateID {
			return nil, fmt.Errorf("blocks.json: %s's default state %d is outside its range", b.Name, b.DefaultState)
		}
		next = b.MaxStateID + 1
		e.str(b.Name)
		e.str(b.DisplayName)
		e.uint(count)
		e.uint(b.DefaultState - b.MinStateID)
		e.uint(len(b.States))
		for _, p := range b.States {
			e.str(p.Name)
			switch p.Type {
			case "enum", "int":
				if len(p.Values) != p.NumValues {
					return nil, fmt.Errorf("blocks.json: %s.%s lists %d values for %d", b.Name, p.Name, len(p.Values), p.NumValues)
				}
				kind := 0
				if p.Type == "int" {
					kind = 2
				}
				e.uint(kind)
				e.uint(p.NumValues)
				for _, v := range p.Values {
					e.str(v)
				}
			case "bool":
				if p.NumValues != 2 {
					return nil, fmt.Errorf("blocks.json: boolean %s.%s has %d values", b.Name, p.Name, p.NumValues)
				}
				e.uint(1)
				e.uint(2)
			default:
				return nil, fmt.Errorf("blocks.json: %s.%s has unknown type %q", b.Name, p.Name, p.Type)
			}
		}
		hardness := -1.0
		if b.Hardness != nil {
			hardness = *b.Hardness
		}
		e.f64(hardness)
		e.f64(b.Resistance)
		flags := 0
		if b.Diggable {
			flags |= 1
		}
		if b.Transparent {
			flags |= 2
		}
		e.uint(flags)
		e.uint(b.EmitLight)
		e.uint(b.FilterLight)
		if _, ok := s.materials[b.Material]; !ok {
			return nil, fmt.Errorf("blocks.json: %s's material %q is not in materials.json", b.Name, b.Material)
		}
		e.str(b.Material)
		tools := make([]int, 0, len(b.HarvestTools))
		for k, ok := range b.HarvestTools {
			id, err := strconv.Atoi(k)
			if err != nil {
				return nil, fmt.Errorf("blocks.json: %s's harvest tool %q: %w", b.Name, k, err)
			}
			if err := itemID("blocks.json: "+b.Name+"'s harvest tools", id); err != nil {
				return nil, err
			}
			if ok {
				tools = append(tools, id)
			}
		}
		sort.Ints(tools)
		e.uint(len(tools))
		for _, id := range tools {
			e.uint(id)
		}
		e.uint(len(b.Drops))
		for _, id := range b.Drops {
			if err := itemID("blocks.json: "+b.Name+"'s drops", id); err != nil {
				return nil, err
			}
			e.uint(id)
		}
	}
	return e.b, nil
}

// Shapes part:
//
//	boxCount, per box: minX minY minZ maxX maxY maxZ (f64)
//	shapeCount, per shape: boxCount, box indices
//	blockCount, per block (sorted by name): name, stateCount,
//	  0 then one shape index for every state, or
//	  1 then a shape index per state
//
// Shape ids are minecraft-data's, renumbered 0… in the order of their
// original ids so that equal files encode equally.
func (s *gameSource) encodeShapes() ([]byte, error) {
	ids := make([]int, 0, len(s.shapes.Shapes))
	for k := range s.shapes.Shapes {
		id, err := strconv.Atoi(k)
		if err != nil {
			return nil, fmt.Errorf("blockCollisionShapes.json: shape id %q: %w", k, err)
		}
		ids = append(ids, id)
	}
	sort.Ints(ids)
	renumber := map[int]int{}
	boxIndex := map[[6]float64]int{}
	var boxes [][6]float64
	shapes := make([][]int, len(ids))
	for i, id := range ids {
		renumber[id] = i
		for _, b := range s.shapes.Shapes[strconv.Itoa(id)] {
			j, ok := boxIndex[b]
			if !ok {
				j = len(boxes)
				boxIndex[b] = j
				boxes = append(boxes, b)
			}
			shapes[i] = append(shapes[i], j)
		}
	}
	var e enc
	e.uint(len(boxes))
	for _, b := range boxes {
		for _, f := range b {
			e.f64(f)
		}
	}
	e.uint(len(shapes))
	for _, sh := range shapes {
		e.uint(len(sh))
		for _, j := range sh {
			e.uint(j)
		}
	}
	stateCount := map[string]int{}
	for _, b := range s.blocks {
		stateCount[b.Name] = b.MaxStateID - b.MinStateID + 1
		if _, ok := s.shapes.Blocks[b.Name]; !ok {
			return nil, fmt.Errorf("blockCollisionShapes.json has no shape for block %s", b.Name)
		}
	}
	names := make([]string, 0, len(s.shapes.Blocks))
	for n := range s.shapes.Blocks {
		if _, ok := stateCount[n]; ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	e.uint(len(names))
	for _, n := range names {
		e.str(n)
		e.uint(stateCount[n])
		raw := s.shapes.Blocks[n]
		var one int
		var per []int
		if err := json.Unmarshal(raw, &one); err == nil {
			j, ok := renumber[one]
			if !ok {
				return nil, fmt.Errorf("blockCollisionShapes.json: %s uses unknown shape %d", n, one)
			}
			e.uint(0)
			e.uint(j)
			continue
		}
		if err := json.Unmarshal(raw, &per); err != nil {
			return nil, fmt.Errorf("blockCollisionShapes.json: %s: %w", n, err)
		}
		if len(per) != stateCount[n] {
			return nil, fmt.Errorf("blockCollisionShapes.json: %s lists %d shapes for %d states", n, len(per), stateCount[n])
		}
		e.uint(1)
		for _, id := range per {
			j, ok := renumber[id]
			if !ok {
				return nil, fmt.Errorf("blockCollisionShapes.json: %s uses unknown shape %d", n, id)
			}
			e.uint(j)
		}
	}
	return e.b, nil
}

// Items part: count, per item in id order: name, displayName, stackSize,
// maxDurability (0: none).
func (s *gameSource) encodeItems() []byte {
	var e enc
	e.uint(len(s.items))
	for _, it := range s.items {
		e.str(it.Name)
		e.str(it.DisplayName)
		e.uint(it.StackSize)
		e.uint(it.MaxDurability)
	}
	return e.b
}

// Foods part: count, per food sorted by name: item name, food points,
// saturation (f64). Foods are matched to items by name, not id: dataPaths
// points 1.21.3 and 1.21.4 at 1.21.1's foods.json, whose ids are 1.21.1's.
func (s *gameSource) encodeFoods(items map[string]int) ([]byte, error) {
	folder := s.release.folders[3]
	scaled := contains(FoodSaturationScaled, folder)
	inflated := false
	foods := append([]mdFood(nil), s.foods...)
	sort.Slice(foods, func(i, j int) bool { return foods[i].Name < foods[j].Name })
	var e enc
	e.uint(len(foods))
	for _, f := range foods {
		if _, ok := items[f.Name]; !ok {
			return nil, fmt.Errorf("%s/foods.json: %s is not an item of %s", folder, f.Name, s.release.version)
		}
		sat := f.Saturation
		if f.FoodPoints > 0 && sat > f.FoodPoints*maxSaturationPerPoint+1e-3 {
			inflated = true
		}
		if scaled && f.FoodPoints > 0 {
			sat /= 2 * f.FoodPoints
		}
		if f.FoodPoints > 0 && sat > f.FoodPoints*maxSaturationPerPoint+1e-3 {
			return nil, fmt.Errorf("%s/foods.json: %s's saturation %v exceeds what the game gives", folder, f.Name, sat)
		}
		e.str(f.Name)
		e.f64(f.FoodPoints)
		e.f64(sat)
	}
	if scaled && !inflated {
		return nil, fmt.Errorf("%s/foods.json no longer inflates saturation: drop it from FoodSaturationScaled", folder)
	}
	return e.b, nil
}

// Materials part: count, per material sorted by name: name, entryCount,
// per entry (item id ascending): item id, speed multiplier (f64).
func (s *gameSource) encodeMaterials(itemID func(string, int) error) ([]byte, error) {
	names := make([]string, 0, len(s.materials))
	for n := range s.materials {
		names = append(names, n)
	}
	sort.Strings(names)
	var e enc
	e.uint(len(names))
	for _, n := range names {
		m := s.materials[n]
		ids := make([]int, 0, len(m))
		for k := range m {
			id, err := strconv.Atoi(k)
			if err != nil {
				return nil, fmt.Errorf("materials.json: %s: item %q: %w", n, k, err)
			}
			if err := itemID("materials.json: "+n, id); err != nil {
				return nil, err
			}
			ids = append(ids, id)
		}
		sort.Ints(ids)
		e.str(n)
		e.uint(len(ids))
		for _, id := range ids {
			e.uint(id)
			e.f64(m[strconv.Itoa(id)])
		}
	}
	return e.b, nil
}

// Entities part: count, per entity type in id order: name, displayName,
// type, category, width, height (f64).
func (s *gameSource) encodeEntities() ([]byte, error) {
	var e enc
	e.uint(len(s.entities))
	for i, x := range s.entities {
		if x.ID != i {
			return nil, fmt.Errorf("entities.json: %s has id %d at index %d", x.Name, x.ID, i)
		}
		e.str(x.Name)
		e.str(x.DisplayName)
		e.str(x.Type)
		e.str(x.Category)
		e.f64(x.Width)
		e.f64(x.Height)
	}
	return e.b, nil
}

// Enchantments part: count, per enchantment in id order: name,
// displayName, maxLevel, category, curse.
func (s *gameSource) encodeEnchantments() ([]byte, error) {
	var e enc
	e.uint(len(s.enchantments))
	for i, x := range s.enchantments {
		if x.ID != i {
			return nil, fmt.Errorf("enchantments.json: %s has id %d at index %d", x.Name, x.ID, i)
		}
		e.str(x.Name)
		e.str(x.DisplayName)
		e.uint(x.MaxLevel)
		e.str(x.Category)
		e.bool(x.Curse)
	}
	return e.b, nil
}

// Effects part: count, per effect in id order: name, displayName,
// beneficial. minecraft-data names effects in CamelCase ("MiningFatigue");
// the part keeps the game's registry name ("mining_fatigue").
func (s *gameSource) encodeEffects() ([]byte, error) {
	var e enc
	e.uint(len(s.effects))
	for i, x := range s.effects {
		if x.ID != i {
			return nil, fmt.Errorf("effects.json: %s has id %d at index %d", x.Name, x.ID, i)
		}
		e.str(snake(x.Name))
		e.str(x.DisplayName)
		e.bool(x.Type == "good")
	}
	return e.b, nil
}

// Recipes part: count, per recipe (results ascending, each result's
// recipes in minecraft-data's order): result id, result count, then
//
//	0 (shaped), height, width, height×width cells row by row from the top,
//	  each item id+1 or 0 for an empty cell; or
//	1 (shapeless), ingredientCount, item ids.
//
// minecraft-data 3.119 writes every 1.21.x and 26.1 recipe the same way
// (inShape or ingredients, a result of id and count) and expands each tag
// ingredient into one recipe per item of the tag, so a crafting table has
// one recipe per plank kind; no recipe carries an outShape.
func (s *gameSource) encodeRecipes(itemID func(string, int) error) ([]byte, error) {
	keys := make([]int, 0, len(s.recipes))
	for k := range s.recipes {
		id, err := strconv.Atoi(k)
		if err != nil {
			return nil, fmt.Errorf("recipes.json: result %q: %w", k, err)
		}
		keys = append(keys, id)
	}
	sort.Ints(keys)
	var e enc
	n := 0
	for _, k := range keys {
		n += len(s.recipes[strconv.Itoa(k)])
	}
	e.uint(n)
	for _, k := range keys {
		for _, r := range s.recipes[strconv.Itoa(k)] {
			if r.Result.ID != k {
				return nil, fmt.Errorf("recipes.json: a recipe under %d makes item %d", k, r.Result.ID)
			}
			if err := itemID("recipes.json", k); err != nil {
				return nil, err
			}
			e.uint(k)
			e.uint(r.Result.Count)
			switch {
			case r.InShape != nil && r.Ingredients == nil:
				h, w := len(r.InShape), len(r.InShape[0])
				if h == 0 || h > 3 || w == 0 || w > 3 {
					return nil, fmt.Errorf("recipes.json: a recipe for %d is %d×%d", k, h, w)
				}
				e.uint(0)
				e.uint(h)
				e.uint(w)
				for _, row := range r.InShape {
					if len(row) != w {
						return nil, fmt.Errorf("recipes.json: a recipe for %d has rows of different widths", k)
					}
					for _, c := range row {
						if c == nil {
							e.uint(0)
							continue
						}
						if err := itemID("recipes.json", *c); err != nil {
							return nil, err
						}
						e.uint(*c + 1)
					}
				}
			case r.Ingredients != nil && r.InShape == nil:
				if len(r.Ingredients) == 0 || len(r.Ingredients) > 9 {
					return nil, fmt.Errorf("recipes.json: a shapeless recipe for %d has %d ingredients", k, len(r.Ingredients))
				}
				e.uint(1)
				e.uint(len(r.Ingredients))
				for _, c := range r.Ingredients {
					if err := itemID("recipes.json", c); err != nil {
						return nil, err
					}
					e.uint(c)
				}
			default:
				return nil, fmt.Errorf("recipes.json: a recipe for %d is neither shaped nor shapeless", k)
			}
		}
	}
	return e.b, nil
}

// Biomes part: count, per biome in id order: name, displayName, category,
// dimension, temperature (f64), precipitation, sky color, then the grass,
// foliage and water tints from tints.json as RGB+1 (0: the game computes
// it, e.g. from temperature and downfall).
func (s *gameSource) encodeBiomes() ([]byte, error) {
	tint := func(kind, biome string) int {
		for _, d := range s.tints[kind].Data {
			for _, k := range d.Keys {
				var name string
				if json.Unmarshal(k, &name) == nil && name == biome {
					return int(uint32(d.Color)&0xFFFFFF) + 1
				}
			}
		}
		return 0
	}
	var e enc
	e.uint(len(s.biomes))
	for i, b := range s.biomes {
		if b.ID != i {
			return nil, fmt.Errorf("biomes.json: %s has id %d at index %d", b.Name, b.ID, i)
		}
		e.str(b.Name)
		e.str(b.DisplayName)
		e.str(b.Category)
		e.str(b.Dimension)
		e.f64(b.Temperature)
		e.bool(b.HasPrecipitation)
		e.uint(int(uint32(b.Color) & 0xFFFFFF))
		for _, kind := range []string{"grass", "foliage", "water"} {
			e.uint(tint(kind, b.Name))
		}
	}
	return e.b, nil
}

// snake turns minecraft-data's CamelCase effect names into the game's
// registry names: "MiningFatigue" → "mining_fatigue".
func snake(s string) string {
	var b strings.Builder
	for i, c := range s {
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			c += 'a' - 'A'
		}
		b.WriteRune(c)
	}
	return b.String()
}

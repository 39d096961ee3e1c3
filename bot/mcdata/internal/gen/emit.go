package gen

// The emit step: releases minecraft-data has no data for (26.2 and 26.3 in
// 3.119.0), built from fact tables extracted from other public sources
// (sources/*.json, each naming its repositories and commits) on top of the
// minecraft-data release they follow.
//
// A release's facts are its registries in protocol order (blocks with their
// states, items, entities, particles, data component types, command
// argument types), what the release added to each (a new block's
// properties, default state, hardness and resistance, and the old block it
// copies its tool, light, transparency and collision shape from; a new
// item's stack size; a new entity's size and the entity it copies), the
// layouts of the new particles and components, the packet lists of the
// states whose ids changed (with the new packets' layouts), the packets whose
// layout changed (as replacements of minecraft-data's protocol.json text, each
// checked against the base before it applies), and the translations that
// are new or changed. From them the step writes a minecraft-data-format
// dataset of the release (blocks.json, items.json, protocol.json …) into
// memory: the rest of the generator reads it like any minecraft-data
// folder, and the test peers get the same files (testdata/peers/mcdata),
// so minecraft-protocol and prismarine-chunk, code we did not write,
// encode and decode the release with the same facts the bot's tables come
// from.
//
// Every id in the base's data (item ids in harvest tools, drops, foods,
// materials and recipes; state ids) is renumbered by name into the
// release's order, so nothing of the base's numbering leaks through.

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

//go:embed sources/*.json
var sourceFiles embed.FS

// EmittedPrefix is the folder prefix of emitted releases in the data set's
// paths ("blockmate/26.2"), and PeersDataDir where the generator writes
// them, relative to bot/mcdata.
const (
	EmittedPrefix = "blockmate/"
	PeersDataDir  = "../../testdata/peers/mcdata"
)

// emittedKinds are the dataPaths kinds an emitted release writes itself;
// every other kind (effects, enchantments, biomes, tints, sounds,
// attributes, commands, loginPacket …) is the base release's, named in the
// dataset's dataPaths.json. The facts say nothing of those: effects are
// unchanged in the release's registries where the sources list them, and
// enchantments and biomes are data-driven registries the server sends.
var emittedKinds = []string{"blocks", "blockCollisionShapes", "items", "foods", "materials", "entities", "recipes", "particles", "protocol", "language", "version"}

// dataSet reads minecraft-data's data folder, with the emitted releases on
// top: a path under EmittedPrefix is read from memory.
type dataSet struct {
	dir     string
	emitted map[string][]byte            // path → JSON
	paths   map[string]map[string]string // emitted release → kind → folder
}

func (d *dataSet) readJSON(rel string, v any) error {
	if strings.HasPrefix(rel, EmittedPrefix) {
		raw, ok := d.emitted[rel]
		if !ok {
			return fmt.Errorf("the emitted releases have no %s", rel)
		}
		if err := json.Unmarshal(raw, v); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		return nil
	}
	return readJSON(filepath.Join(d.dir, filepath.FromSlash(rel)), v)
}

// readRaw reads a file of the data set.
func (d *dataSet) readRaw(rel string) ([]byte, error) {
	if strings.HasPrefix(rel, EmittedPrefix) {
		raw, ok := d.emitted[rel]
		if !ok {
			return nil, fmt.Errorf("the emitted releases have no %s", rel)
		}
		return raw, nil
	}
	raw, err := os.ReadFile(filepath.Join(d.dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil, fmt.Errorf("minecraft-data file missing (%w); run: npm ci --prefix testdata/peers", err)
	}
	return raw, nil
}

// readNumbers reads JSON keeping numbers as written (6.0 stays 6.0), so that
// data copied from the base is written back unchanged.
func (d *dataSet) readNumbers(rel string, v any) error {
	raw, err := d.readRaw(rel)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	return nil
}

// releaseFacts is one sources/*.json file.
type releaseFacts struct {
	Protocol int      `json:"protocol"`
	Names    []string `json:"names"`
	// Base is the release the facts build on: a minecraft-data version or
	// an emitted one.
	Base string `json:"base"`
	// Sources name each repository and commit the facts come from.
	Sources []string `json:"sources"`
	// Notes say, in sentences, what the facts do not cover.
	Notes []string `json:"notes"`
	// BlockStates is the release's number of block states, to check the
	// states the blocks' properties make.
	BlockStates int        `json:"blockStates"`
	Blocks      []string   `json:"blocks"`
	NewBlocks   []newBlock `json:"newBlocks"`
	// ChangedBlocks are old blocks whose properties changed: listed in full
	// like new blocks; each copies its old self.
	ChangedBlocks []newBlock  `json:"changedBlocks"`
	Items         []string    `json:"items"`
	NewItems      []newItem   `json:"newItems"`
	Entities      []string    `json:"entities"`
	NewEntities   []newEntity `json:"newEntities"`
	// ChangedEntities are old entities whose size changed (name, width,
	// height).
	ChangedEntities []newEntity `json:"changedEntities"`
	Particles       []string    `json:"particles"`
	// ParticleLayouts are the protodef types of new particles that carry
	// data (none: the particle carries nothing).
	ParticleLayouts map[string]json.RawMessage `json:"particleLayouts"`
	Components      []string                   `json:"components"`
	// ComponentLayouts are the protodef types of new or changed data
	// components.
	ComponentLayouts map[string]json.RawMessage `json:"componentLayouts"`
	// ArgumentTypes are the command argument parsers in protocol order, as
	// ViaVersion names them (minecraft: left out).
	ArgumentTypes []string `json:"argumentTypes"`
	// MDNames are the names minecraft-data's protocol.json gives registry
	// entries where they differ from the game's (and the facts'): the
	// emitted protocol.json keeps minecraft-data's, as its base has them.
	MDNames map[string]string `json:"mdNames"`
	// Mappers are further registries protocol.json spells out as mappers
	// (the attributes of entity_update_attributes), each rebuilt in the
	// release's order at its path.
	Mappers []struct {
		Path  string   `json:"path"`
		Names []string `json:"names"`
	} `json:"mappers"`
	// Packets are the packet lists of the states and directions whose ids
	// changed: every packet in protocol order (minecraft-data's names where
	// the base has the packet), with the layouts of the new ones.
	Packets []packetList `json:"packets"`
	// ProtocolPatches replace parts of the base's protocol.json.
	ProtocolPatches []protocolPatch `json:"protocolPatches"`
	// Language holds the translations new or changed since the base.
	Language map[string]string `json:"language"`
}

type newBlock struct {
	Name         string            `json:"name"`
	DisplayName  string            `json:"displayName"`
	Hardness     *float64          `json:"hardness"`
	Resistance   float64           `json:"resistance"`
	RequiresTool bool              `json:"requiresTool"`
	Default      map[string]string `json:"default"`
	// Properties in minecraft-data's order: the first varies slowest.
	Properties []struct {
		Name   string   `json:"name"`
		Values []string `json:"values"`
	} `json:"properties"`
}

type newItem struct {
	Name          string `json:"name"`
	DisplayName   string `json:"displayName"`
	StackSize     int    `json:"stackSize"`
	MaxDurability int    `json:"maxDurability,omitempty"`
}

type newEntity struct {
	Name        string  `json:"name"`
	DisplayName string  `json:"displayName"`
	Width       float64 `json:"width"`
	Height      float64 `json:"height"`
}

// packetList is the whole packet list of one state and direction
// ("play", "toClient"): Order names every packet by id (0, 1, …); a name
// the base lacks is a new packet and takes its layout from Layouts; a base
// packet missing from Order is gone, and its packet_ type with it.
type packetList struct {
	State     string                     `json:"state"`
	Direction string                     `json:"direction"`
	Order     []string                   `json:"order"`
	Layouts   map[string]json.RawMessage `json:"layouts"`
}

// protocolPatch replaces the part of protocol.json at Path (object keys,
// then container fields by name or "@N" by index, switch cases by name)
// whose text is MD with Game.
type protocolPatch struct {
	Path string          `json:"path"`
	MD   json.RawMessage `json:"md"`
	Game json.RawMessage `json:"game"`
	Why  string          `json:"why"`
}

// loadFacts reads every sources/*.json, oldest protocol first.
func loadFacts() ([]releaseFacts, error) {
	entries, err := sourceFiles.ReadDir("sources")
	if err != nil {
		return nil, err
	}
	var out []releaseFacts
	for _, e := range entries {
		raw, err := sourceFiles.ReadFile("sources/" + e.Name())
		if err != nil {
			return nil, err
		}
		var f releaseFacts
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return nil, fmt.Errorf("sources/%s: %w", e.Name(), err)
		}
		if len(f.Names) == 0 || f.Protocol <= 0 || f.Base == "" {
			return nil, fmt.Errorf("sources/%s: protocol, names and base are required", e.Name())
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Protocol < out[j].Protocol })
	return out, nil
}

// emit builds every release of sources/ into d and returns the files the
// test peers read, by their path from bot/mcdata.
func (d *dataSet) emit() (map[string][]byte, error) {
	facts, err := loadFacts()
	if err != nil {
		return nil, err
	}
	d.emitted = map[string][]byte{}
	d.paths = map[string]map[string]string{}
	var mdPaths struct {
		PC map[string]map[string]string `json:"pc"`
	}
	if err := d.readJSON("dataPaths.json", &mdPaths); err != nil {
		return nil, err
	}
	peers := map[string][]byte{}
	// releases.json tells the peers each emitted release's base, whose
	// prismarine-chunk implementation reads it (the chunk format is the
	// base's: ViaVersion's ChunkType26_1 for 26.2 and 26.3).
	var index jsonArray
	for _, f := range facts {
		index = append(index, jsonObject{"version": f.Names[len(f.Names)-1], "names": stringsToAny(f.Names), "protocol": intNum(f.Protocol), "base": f.Base})
	}
	list, err := marshalLines(index)
	if err != nil {
		return nil, err
	}
	peers[path.Join(PeersDataDir, "releases.json")] = list
	for _, f := range facts {
		version := f.Names[len(f.Names)-1]
		base := d.paths[f.Base]
		if base == nil {
			base = mdPaths.PC[f.Base]
		}
		if base == nil {
			return nil, fmt.Errorf("facts of %s build on %s, which neither minecraft-data nor sources/ has", version, f.Base)
		}
		files, err := buildRelease(d, f, base)
		if err != nil {
			return nil, fmt.Errorf("emitting %s (protocol %d): %w", version, f.Protocol, err)
		}
		folder := EmittedPrefix + version
		entry := map[string]string{}
		for k, v := range base {
			entry[k] = v
		}
		for _, k := range emittedKinds {
			entry[k] = folder
		}
		delete(entry, "proto") // minecraft-data's protocol.yml of its newest version
		for _, name := range f.Names {
			d.paths[name] = entry
		}
		for _, k := range emittedKinds {
			raw, ok := files[k]
			if !ok {
				return nil, fmt.Errorf("emitting %s wrote no %s", version, k)
			}
			d.emitted[folder+"/"+k+".json"] = raw
			peers[path.Join(PeersDataDir, version, k+".json")] = raw
		}
	}
	paths, err := marshalIndexed(d.paths)
	if err != nil {
		return nil, err
	}
	peers[path.Join(PeersDataDir, "dataPaths.json")] = paths
	return peers, nil
}

// base data as read with numbers kept.
type (
	jsonObject = map[string]any
	jsonArray  = []any
)

func buildRelease(d *dataSet, f releaseFacts, base map[string]string) (map[string][]byte, error) {
	read := func(kind string) (any, error) {
		folder := base[kind]
		if folder == "" {
			return nil, fmt.Errorf("the base %s has no %s", f.Base, kind)
		}
		var v any
		err := d.readNumbers(folder+"/"+kind+".json", &v)
		return v, err
	}
	var err error
	src := map[string]any{}
	for _, k := range emittedKinds {
		if k == "version" || k == "protocol" {
			continue
		}
		if src[k], err = read(k); err != nil {
			return nil, err
		}
	}
	// protocol.json keeps its key order (ordered.go).
	raw, err := d.readRaw(base["protocol"] + "/protocol.json")
	if err != nil {
		return nil, err
	}
	if src["protocol"], err = decodeOrdered(raw); err != nil {
		return nil, fmt.Errorf("the base's protocol.json: %w", err)
	}
	b := &builder{facts: f, out: map[string][]byte{}}
	steps := []func(map[string]any) error{b.items, b.blocks, b.shapes, b.foods, b.materials, b.entities, b.recipes, b.particles, b.protocol, b.language}
	for _, step := range steps {
		if err := step(src); err != nil {
			return nil, err
		}
	}
	version := f.Names[len(f.Names)-1]
	major := version
	if parts := strings.Split(version, "."); len(parts) > 2 {
		major = strings.Join(parts[:2], ".")
	}
	b.out["version"], err = marshalIndexed(map[string]any{"version": f.Protocol, "minecraftVersion": version, "majorVersion": major, "releaseType": "release"})
	return b.out, err
}

// builder turns one release's facts and its base's data into the
// release's files.
type builder struct {
	facts releaseFacts
	out   map[string][]byte
	// the base's item and block ids by name, and the release's
	oldItems  map[float64]string
	newItemID map[string]int
	oldBlocks map[string]jsonObject
	newBlocks map[string]jsonObject // the release's blocks.json entries
}

func num(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func intNum(i int) json.Number { return json.Number(strconv.Itoa(i)) }

func floatNum(f float64) json.Number {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0" // minecraft-data writes hardness 1.5 and 6.0 alike
	}
	return json.Number(s)
}

// remapItem renumbers a base item id into the release's order.
func (b *builder) remapItem(v any) (json.Number, error) {
	id, ok := num(v)
	if !ok {
		return "", fmt.Errorf("item id %v is not a number", v)
	}
	name, ok := b.oldItems[id]
	if !ok {
		return "", fmt.Errorf("item id %v is not an item of the base", v)
	}
	n, ok := b.newItemID[name]
	if !ok {
		return "", fmt.Errorf("item %s of the base is not in the release's items", name)
	}
	return intNum(n), nil
}

func checkUnique(what string, names []string) error {
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return fmt.Errorf("%s lists %s twice", what, n)
		}
		seen[n] = true
	}
	return nil
}

func (b *builder) items(src map[string]any) error {
	base, _ := src["items"].(jsonArray)
	if err := checkUnique("items", b.facts.Items); err != nil {
		return err
	}
	b.oldItems = map[float64]string{}
	byName := map[string]jsonObject{}
	for _, x := range base {
		o := x.(jsonObject)
		id, _ := num(o["id"])
		name, _ := o["name"].(string)
		b.oldItems[id] = name
		byName[name] = o
	}
	added := map[string]newItem{}
	for _, it := range b.facts.NewItems {
		added[it.Name] = it
	}
	b.newItemID = map[string]int{}
	var out jsonArray
	for i, name := range b.facts.Items {
		b.newItemID[name] = i
		if o, ok := byName[name]; ok {
			if _, dup := added[name]; dup {
				return fmt.Errorf("item %s is listed as new but the base has it", name)
			}
			c := copyObject(o)
			c["id"] = intNum(i)
			out = append(out, c)
			continue
		}
		it, ok := added[name]
		if !ok {
			return fmt.Errorf("item %s is new in the release's order, but the facts do not describe it", name)
		}
		if it.StackSize < 1 || it.StackSize > 99 || it.DisplayName == "" {
			return fmt.Errorf("new item %s needs a display name and a stack size of 1 to 99", name)
		}
		o := jsonObject{"id": intNum(i), "name": name, "displayName": it.DisplayName, "stackSize": intNum(it.StackSize)}
		if it.MaxDurability > 0 {
			o["maxDurability"] = intNum(it.MaxDurability)
		}
		out = append(out, o)
		delete(added, name)
	}
	if len(added) > 0 {
		return fmt.Errorf("new items %v are not in the release's order", sortedKeysOf(added))
	}
	var err error
	b.out["items"], err = marshalLines(out)
	return err
}

func (b *builder) blocks(src map[string]any) error {
	base, _ := src["blocks"].(jsonArray)
	if err := checkUnique("blocks", b.facts.Blocks); err != nil {
		return err
	}
	b.oldBlocks = map[string]jsonObject{}
	for _, x := range base {
		o := x.(jsonObject)
		name, _ := o["name"].(string)
		b.oldBlocks[name] = o
	}
	described := map[string]newBlock{}
	for _, nb := range b.facts.NewBlocks {
		if _, ok := b.oldBlocks[nb.Name]; ok {
			return fmt.Errorf("block %s is listed as new but the base has it", nb.Name)
		}
		described[nb.Name] = nb
	}
	for _, nb := range b.facts.ChangedBlocks {
		if _, ok := b.oldBlocks[nb.Name]; !ok {
			return fmt.Errorf("block %s is listed as changed but the base lacks it", nb.Name)
		}
		described[nb.Name] = nb
	}
	b.newBlocks = map[string]jsonObject{}
	var out jsonArray
	next := 0
	for i, name := range b.facts.Blocks {
		var o jsonObject
		if nb, ok := described[name]; ok {
			var err error
			if o, err = b.describedBlock(nb); err != nil {
				return err
			}
			delete(described, name)
		} else if old, ok := b.oldBlocks[name]; ok {
			o = copyObject(old)
			if err := b.remapBlockItems(o); err != nil {
				return fmt.Errorf("block %s: %w", name, err)
			}
		} else {
			return fmt.Errorf("block %s is new in the release's order, but the facts do not describe it", name)
		}
		count, err := stateCount(o)
		if err != nil {
			return fmt.Errorf("block %s: %w", name, err)
		}
		offset, err := b.defaultOffset(name, o)
		if err != nil {
			return err
		}
		o["id"] = intNum(i)
		o["minStateId"] = intNum(next)
		o["maxStateId"] = intNum(next + count - 1)
		o["defaultState"] = intNum(next + offset)
		next += count
		b.newBlocks[name] = o
		out = append(out, o)
	}
	if len(described) > 0 {
		return fmt.Errorf("described blocks %v are not in the release's order", sortedKeysOf(described))
	}
	if next != b.facts.BlockStates {
		return fmt.Errorf("the blocks make %d states; the release has %d", next, b.facts.BlockStates)
	}
	var err error
	b.out["blocks"], err = marshalLines(out)
	return err
}

// describedBlock builds a new (or changed) block from its facts and the
// block it copies.
func (b *builder) describedBlock(nb newBlock) (jsonObject, error) {
	from := b.copyOf(nb.Name)
	if from == "" {
		return nil, fmt.Errorf("new block %s copies no old block: name one in corrections.go's BlockCopies", nb.Name)
	}
	cp, ok := b.oldBlocks[from]
	if !ok {
		return nil, fmt.Errorf("block %s copies %s, which the base does not have", nb.Name, from)
	}
	o := copyObject(cp)
	if err := b.remapBlockItems(o); err != nil {
		return nil, fmt.Errorf("block %s's copy %s: %w", nb.Name, from, err)
	}
	// A block shaped as another lets light through as that one does (a
	// wool slab filters no light, as oak's slab; PrismarineJS's 26.3
	// blocks.json agrees).
	if shape := shapeCopy(b.facts.Protocol, nb.Name); shape != "" {
		sc, ok := b.oldBlocks[shape]
		if !ok {
			return nil, fmt.Errorf("block %s takes the shapes of %s, which the base does not have", nb.Name, shape)
		}
		o["transparent"], o["filterLight"] = sc["transparent"], sc["filterLight"]
	}
	o["name"] = nb.Name
	if nb.DisplayName == "" {
		return nil, fmt.Errorf("block %s has no display name", nb.Name)
	}
	o["displayName"] = nb.DisplayName
	if nb.Hardness == nil {
		o["hardness"] = nil
		o["diggable"] = false
	} else {
		o["hardness"] = floatNum(*nb.Hardness)
		o["diggable"] = *nb.Hardness >= 0
	}
	o["resistance"] = floatNum(nb.Resistance)
	// The tool a block needs is the copy's: the facts' flag must agree.
	tools, _ := o["harvestTools"].(jsonObject)
	if nb.RequiresTool != (len(tools) > 0) {
		return nil, fmt.Errorf("block %s requires a tool: %v, but its copy %s says %v; choose another copy", nb.Name, nb.RequiresTool, from, len(tools) > 0)
	}
	var states jsonArray
	for _, p := range nb.Properties {
		if len(p.Values) < 2 {
			return nil, fmt.Errorf("block %s's property %s has %d values", nb.Name, p.Name, len(p.Values))
		}
		st := jsonObject{"name": p.Name, "num_values": intNum(len(p.Values))}
		switch {
		case reflect.DeepEqual(p.Values, []string{"true", "false"}):
			st["type"] = "bool"
		case allInts(p.Values):
			st["type"], st["values"] = "int", stringsToAny(p.Values)
		default:
			st["type"], st["values"] = "enum", stringsToAny(p.Values)
		}
		states = append(states, st)
	}
	if states == nil {
		states = jsonArray{}
	}
	o["states"] = states
	// Drops: the block's own item where the release has one, as the game's
	// loot tables for these blocks do; else the copy's.
	if id, ok := b.newItemID[nb.Name]; ok {
		o["drops"] = jsonArray{intNum(id)}
	}
	if _, ok := b.newItemID[nb.Name]; ok {
		o["stackSize"] = intNum(64)
	}
	return o, nil
}

// copyOf is the old block a described block copies: a changed block its
// old self, a new one the block corrections.go names; "" for neither.
func (b *builder) copyOf(name string) string {
	for _, nb := range b.facts.ChangedBlocks {
		if nb.Name == name {
			return name
		}
	}
	for _, nb := range b.facts.NewBlocks {
		if nb.Name == name {
			from, _ := copyFor(allBlockCopies(), b.facts.Protocol, name)
			return from
		}
	}
	return ""
}

// allBlockCopies is every release's block copies.
func allBlockCopies() []Copy { return append(append([]Copy{}, BlockCopies...), BlockCopies777...) }

// shapeCopy is the block a new block takes its shapes from when that is not
// the block it copies (Copy.ShapeFrom), or "".
func shapeCopy(protocol int, name string) string {
	for _, c := range allBlockCopies() {
		if c.New == name && c.ShapeFrom != "" && indexOfInt(c.Protocols, protocol) >= 0 {
			return c.ShapeFrom
		}
	}
	return ""
}

func indexOfInt(list []int, x int) int {
	for i, v := range list {
		if v == x {
			return i
		}
	}
	return -1
}

func allInts(values []string) bool {
	for _, v := range values {
		if _, err := strconv.Atoi(v); err != nil {
			return false
		}
	}
	return true
}

func stringsToAny(s []string) jsonArray {
	out := make(jsonArray, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func (b *builder) remapBlockItems(o jsonObject) error {
	if tools, ok := o["harvestTools"].(jsonObject); ok {
		nt := jsonObject{}
		for k, v := range tools {
			id, err := b.remapItem(json.Number(k))
			if err != nil {
				return fmt.Errorf("harvest tool: %w", err)
			}
			nt[id.String()] = v
		}
		o["harvestTools"] = nt
	}
	if drops, ok := o["drops"].(jsonArray); ok {
		nd := jsonArray{}
		for _, v := range drops {
			id, err := b.remapItem(v)
			if err != nil {
				return fmt.Errorf("drop: %w", err)
			}
			nd = append(nd, id)
		}
		o["drops"] = nd
	}
	return nil
}

// blockProps lists a block's properties in minecraft-data's order with
// their values (bool: true, false).
func blockProps(o jsonObject) ([]string, [][]string, error) {
	states, _ := o["states"].(jsonArray)
	var names []string
	var values [][]string
	for _, s := range states {
		st, _ := s.(jsonObject)
		name, _ := st["name"].(string)
		var vals []string
		if st["type"] == "bool" {
			vals = []string{"true", "false"}
		} else {
			list, _ := st["values"].(jsonArray)
			for _, v := range list {
				vs, _ := v.(string)
				vals = append(vals, vs)
			}
		}
		n, _ := num(st["num_values"])
		if int(n) != len(vals) || len(vals) == 0 {
			return nil, nil, fmt.Errorf("property %s has %v values listed as %d", name, vals, int(n))
		}
		names = append(names, name)
		values = append(values, vals)
	}
	return names, values, nil
}

func stateCount(o jsonObject) (int, error) {
	_, values, err := blockProps(o)
	if err != nil {
		return 0, err
	}
	n := 1
	for _, v := range values {
		n *= len(v)
	}
	return n, nil
}

// stateOffset is the offset of the state with the given property values
// from the block's first state (the last property varies fastest).
func stateOffset(names []string, values [][]string, props map[string]string) (int, error) {
	off := 0
	for i, n := range names {
		v, ok := props[n]
		if !ok {
			return 0, fmt.Errorf("no value for property %s", n)
		}
		j := indexOf(values[i], v)
		if j < 0 {
			return 0, fmt.Errorf("property %s has no value %q", n, v)
		}
		off = off*len(values[i]) + j
	}
	return off, nil
}

// stateProps is stateOffset's inverse.
func stateProps(names []string, values [][]string, off int) map[string]string {
	props := map[string]string{}
	for i := len(names) - 1; i >= 0; i-- {
		props[names[i]] = values[i][off%len(values[i])]
		off /= len(values[i])
	}
	return props
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func (b *builder) defaultOffset(name string, o jsonObject) (int, error) {
	for _, list := range [][]newBlock{b.facts.NewBlocks, b.facts.ChangedBlocks} {
		for _, nb := range list {
			if nb.Name != name {
				continue
			}
			names, values, err := blockProps(o)
			if err != nil {
				return 0, err
			}
			if len(nb.Default) != len(names) {
				return 0, fmt.Errorf("block %s's default state names %d properties; it has %d", name, len(nb.Default), len(names))
			}
			off, err := stateOffset(names, values, nb.Default)
			if err != nil {
				return 0, fmt.Errorf("block %s's default state: %w", name, err)
			}
			return off, nil
		}
	}
	old := b.oldBlocks[name]
	def, _ := num(old["defaultState"])
	min, _ := num(old["minStateId"])
	return int(def - min), nil
}

func (b *builder) shapes(src map[string]any) error {
	base, _ := src["blockCollisionShapes"].(jsonObject)
	blocks, _ := base["blocks"].(jsonObject)
	shapes, _ := base["shapes"].(jsonObject)
	if blocks == nil || shapes == nil {
		return fmt.Errorf("the base's blockCollisionShapes.json has no blocks or shapes")
	}
	stateShape := func(name string, props map[string]string) (any, error) {
		o := b.oldBlocks[name]
		names, values, err := blockProps(o)
		if err != nil {
			return nil, err
		}
		sel := map[string]string{}
		for _, n := range names {
			v, ok := props[n]
			if !ok {
				return nil, fmt.Errorf("the copy %s has a property %s the block lacks", name, n)
			}
			sel[n] = v
		}
		off, err := stateOffset(names, values, sel)
		if err != nil {
			return nil, fmt.Errorf("copy %s: %w", name, err)
		}
		switch s := blocks[name].(type) {
		case json.Number:
			return s, nil
		case jsonArray:
			if off >= len(s) {
				return nil, fmt.Errorf("copy %s lists %d shapes", name, len(s))
			}
			return s[off], nil
		}
		return nil, fmt.Errorf("blockCollisionShapes.json has no shape for %s", name)
	}
	out := jsonObject{}
	for _, name := range b.facts.Blocks {
		copyOf := b.copyOf(name)
		if shape := shapeCopy(b.facts.Protocol, name); shape != "" {
			copyOf = shape
		}
		if copyOf == "" {
			s, ok := blocks[name]
			if !ok {
				return fmt.Errorf("blockCollisionShapes.json has no shape for %s", name)
			}
			out[name] = s
			continue
		}
		// A described block takes, state by state, the shape of the
		// copy's state with the same values of the copy's properties.
		o := b.newBlocks[name]
		names, values, err := blockProps(o)
		if err != nil {
			return err
		}
		count, _ := stateCount(o)
		var per jsonArray
		same := true
		for off := 0; off < count; off++ {
			s, err := stateShape(copyOf, stateProps(names, values, off))
			if err != nil {
				return fmt.Errorf("block %s: %w", name, err)
			}
			per = append(per, s)
			same = same && s == per[0]
		}
		if same {
			out[name] = per[0]
		} else {
			out[name] = per
		}
	}
	raw, err := marshalIndexed(jsonObject{"blocks": out, "shapes": shapes})
	b.out["blockCollisionShapes"] = raw
	return err
}

func (b *builder) foods(src map[string]any) error {
	base, _ := src["foods"].(jsonArray)
	var out jsonArray
	for _, x := range base {
		o := copyObject(x.(jsonObject))
		name, _ := o["name"].(string)
		id, ok := b.newItemID[name]
		if !ok {
			return fmt.Errorf("food %s is not an item of the release", name)
		}
		o["id"] = intNum(id)
		out = append(out, o)
	}
	var err error
	b.out["foods"], err = marshalLines(out)
	return err
}

func (b *builder) materials(src map[string]any) error {
	base, _ := src["materials"].(jsonObject)
	out := jsonObject{}
	for name, m := range base {
		entries, _ := m.(jsonObject)
		nm := jsonObject{}
		for k, v := range entries {
			id, err := b.remapItem(json.Number(k))
			if err != nil {
				return fmt.Errorf("material %s: %w", name, err)
			}
			nm[id.String()] = v
		}
		out[name] = nm
	}
	var err error
	b.out["materials"], err = marshalIndexed(out)
	return err
}

func (b *builder) entities(src map[string]any) error {
	base, _ := src["entities"].(jsonArray)
	if err := checkUnique("entities", b.facts.Entities); err != nil {
		return err
	}
	byName := map[string]jsonObject{}
	for _, x := range base {
		o := x.(jsonObject)
		name, _ := o["name"].(string)
		byName[name] = o
	}
	added := map[string]newEntity{}
	for _, e := range b.facts.NewEntities {
		added[e.Name] = e
	}
	changed := 0
	var out jsonArray
	for i, name := range b.facts.Entities {
		var o jsonObject
		if old, ok := byName[name]; ok {
			o = copyObject(old)
			for _, c := range b.facts.ChangedEntities {
				if c.Name == name {
					if c.Width <= 0 || c.Height <= 0 {
						return fmt.Errorf("changed entity %s needs a width and a height", name)
					}
					o["width"], o["height"] = floatNum(c.Width), floatNum(c.Height)
					changed++
				}
			}
		} else if e, ok := added[name]; ok {
			from, _ := copyFor(EntityCopies, b.facts.Protocol, name)
			cp, ok := byName[from]
			if !ok {
				return fmt.Errorf("new entity %s copies %q, which the base does not have: name one in corrections.go's EntityCopies", name, from)
			}
			o = copyObject(cp)
			o["name"], o["displayName"] = name, e.DisplayName
			o["width"], o["height"] = floatNum(e.Width), floatNum(e.Height)
			delete(added, name)
		} else {
			return fmt.Errorf("entity %s is new in the release's order, but the facts do not describe it", name)
		}
		o["id"], o["internalId"] = intNum(i), intNum(i)
		out = append(out, o)
	}
	if len(added) > 0 {
		return fmt.Errorf("new entities %v are not in the release's order", sortedKeysOf(added))
	}
	if changed != len(b.facts.ChangedEntities) {
		return fmt.Errorf("changed entities name %d entities; %d of them are old entities of the release", len(b.facts.ChangedEntities), changed)
	}
	var err error
	b.out["entities"], err = marshalLines(out)
	return err
}

// recipes renumbers the base's recipes. A recipe that names an item the
// release lacks is an error; recipes of new items are not in any source
// the facts use (sources' notes say so), so the release has none.
func (b *builder) recipes(src map[string]any) error {
	base, _ := src["recipes"].(jsonObject)
	out := jsonObject{}
	var walk func(v any) (any, error)
	walk = func(v any) (any, error) {
		switch x := v.(type) {
		case json.Number:
			return b.remapItem(x)
		case jsonArray:
			na := make(jsonArray, len(x))
			for i, e := range x {
				var err error
				if na[i], err = walk(e); err != nil {
					return nil, err
				}
			}
			return na, nil
		case jsonObject:
			no := jsonObject{}
			for k, e := range x {
				if k == "count" {
					no[k] = e
					continue
				}
				var err error
				if no[k], err = walk(e); err != nil {
					return nil, err
				}
			}
			return no, nil
		}
		return v, nil
	}
	for k, list := range base {
		id, err := b.remapItem(json.Number(k))
		if err != nil {
			return fmt.Errorf("recipes for %s: %w", k, err)
		}
		nl, err := walk(list)
		if err != nil {
			return fmt.Errorf("recipes for %s: %w", k, err)
		}
		out[id.String()] = nl
	}
	var err error
	b.out["recipes"], err = marshalIndexed(out)
	return err
}

func (b *builder) particles(src map[string]any) error {
	if err := checkUnique("particles", b.facts.Particles); err != nil {
		return err
	}
	var out jsonArray
	for i, name := range b.facts.Particles {
		out = append(out, jsonObject{"id": intNum(i), "name": name})
	}
	var err error
	b.out["particles"], err = marshalLines(out)
	return err
}

func (b *builder) language(src map[string]any) error {
	base, _ := src["language"].(jsonObject)
	out := jsonObject{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range b.facts.Language {
		out[k] = v
	}
	var err error
	b.out["language"], err = marshalIndexed(out)
	return err
}

func copyObject(o jsonObject) jsonObject {
	c := make(jsonObject, len(o))
	for k, v := range o {
		c[k] = v
	}
	return c
}

func sortedKeysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// marshalLines writes an array one element a line, so that a diff of two
// releases' files shows the entries that changed.
func marshalLines(list jsonArray) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, e := range list {
		raw, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		b.Write(raw)
		if i < len(list)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	return b.Bytes(), nil
}

// marshalIndexed writes an object one key a line (keys sorted).
func marshalIndexed(v any) ([]byte, error) {
	o, ok := v.(jsonObject)
	if !ok {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		var back jsonObject
		if err := json.Unmarshal(raw, &back); err != nil {
			return nil, err
		}
		o = back
	}
	var b bytes.Buffer
	b.WriteString("{\n")
	keys := sortedKeysOf(o)
	for i, k := range keys {
		kr, _ := json.Marshal(k)
		vr, err := json.Marshal(o[k])
		if err != nil {
			return nil, err
		}
		b.Write(kr)
		b.WriteByte(':')
		b.Write(vr)
		if i < len(keys)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// protocol applies the facts to the base's protocol.json: the packet
// patches, then the registries the definitions carry (data component
// types, particle types, command argument parsers) rebuilt in the
// release's order with the layouts of what is new. The file is read and
// written with its keys in order (ordered.go).
func (b *builder) protocol(src map[string]any) error {
	proto, _ := src["protocol"].(*ordered)
	if proto == nil {
		return fmt.Errorf("the base's protocol.json is not an object")
	}
	tv, _ := proto.get("types")
	types, _ := tv.(*ordered)
	if types == nil {
		return fmt.Errorf("the base's protocol.json has no types")
	}
	text := string(mustJSON(proto))
	for game, md := range b.facts.MDNames {
		if !strings.Contains(text, strconv.Quote(md)) {
			return fmt.Errorf("mdNames: the base's protocol.json no longer names %s %q: drop the alias", game, md)
		}
	}
	for _, l := range b.facts.Packets {
		if err := applyPacketList(proto, l); err != nil {
			return fmt.Errorf("packets of %s %s: %w", l.State, l.Direction, err)
		}
	}
	for _, p := range b.facts.ProtocolPatches {
		if err := applyPatch(proto, p); err != nil {
			return fmt.Errorf("protocol patch %s: %w", p.Path, err)
		}
	}
	if err := b.registrySwitch(types, "SlotComponentType", "SlotComponent", "data", b.facts.Components, b.facts.ComponentLayouts, true); err != nil {
		return err
	}
	if err := b.registrySwitch(types, "", "Particle", "data", b.facts.Particles, b.facts.ParticleLayouts, false); err != nil {
		return err
	}
	if len(b.facts.ArgumentTypes) > 0 {
		if err := b.argumentTypes(types); err != nil {
			return err
		}
	}
	for _, m := range b.facts.Mappers {
		node, _, err := navigate(proto, m.Path)
		if err != nil {
			return fmt.Errorf("mapper %s: %w", m.Path, err)
		}
		old, opts, err := mapperNames(node)
		if err != nil {
			return fmt.Errorf("mapper %s: %w", m.Path, err)
		}
		names := b.mdNames(m.Names)
		if err := checkUnique(m.Path, names); err != nil {
			return err
		}
		// A registry keeps its entries (renamed ones are aliased): an old
		// name the release lacks means the facts or the aliases are wrong.
		for _, n := range old {
			if indexOf(names, n) < 0 {
				return fmt.Errorf("mapper %s: the base's %s is not in the release's list (add an mdNames alias if minecraft-data spells it otherwise)", m.Path, n)
			}
		}
		opts.set("mappings", mappings(names))
	}
	raw, err := json.MarshalIndent(proto, "", "  ")
	if err != nil {
		return err
	}
	b.out["protocol"] = append(raw, '\n')
	return nil
}

// applyPacketList renumbers a state's packets: the packet mapper gets the
// list's ids, the params switch its cases (a base packet keeps its type,
// a new one gets packet_<name> from its layout), and the types of the
// packets the release dropped are deleted.
func applyPacketList(root *ordered, l packetList) error {
	if err := checkUnique("packets", l.Order); err != nil {
		return err
	}
	node, _, err := navigate(root, l.State+"."+l.Direction+".types")
	if err != nil {
		return err
	}
	types, _ := node.(*ordered)
	if types == nil {
		return fmt.Errorf("no types object")
	}
	pv, _ := types.get("packet")
	container, _ := pv.([]any)
	if len(container) != 2 || container[0] != "container" {
		return fmt.Errorf("packet is not a container")
	}
	fields, _ := container[1].([]any)
	if len(fields) != 2 {
		return fmt.Errorf("packet has %d fields, not name and params", len(fields))
	}
	nameType, _ := fields[0].(*ordered).get("type")
	old, _, err := mapperNames(hexMapper(nameType))
	if err != nil {
		return fmt.Errorf("packet names: %w", err)
	}
	opts, _ := nameType.([]any)[1].(*ordered)
	paramsType, _ := fields[1].(*ordered).get("type")
	sw, _ := paramsType.([]any)
	if len(sw) != 2 || sw[0] != "switch" {
		return fmt.Errorf("packet params is not a switch")
	}
	swOpts, _ := sw[1].(*ordered)
	cv, _ := swOpts.get("fields")
	cases, _ := cv.(*ordered)
	if cases == nil {
		return fmt.Errorf("packet params has no cases")
	}
	mappings := newOrdered()
	newCases := newOrdered()
	used := map[string]bool{}
	for i, name := range l.Order {
		mappings.set(fmt.Sprintf("0x%02x", i), name)
		if c, ok := cases.get(name); ok {
			if _, dup := l.Layouts[name]; dup {
				return fmt.Errorf("%s is in the base and also given a layout", name)
			}
			newCases.set(name, c)
			if s, ok := c.(string); ok {
				used[s] = true
			}
			continue
		}
		raw, ok := l.Layouts[name]
		if !ok {
			return fmt.Errorf("%s is new and has no layout", name)
		}
		layout, err := decodeOrdered(raw)
		if err != nil {
			return fmt.Errorf("layout of %s: %w", name, err)
		}
		typeName := "packet_" + name
		if _, clash := types.get(typeName); clash {
			return fmt.Errorf("%s is new, but the base already has a type %s", name, typeName)
		}
		types.set(typeName, layout)
		newCases.set(name, typeName)
		used[typeName] = true
	}
	for n := range l.Layouts {
		if indexOf(l.Order, n) < 0 {
			return fmt.Errorf("a layout for %s, which the list does not name", n)
		}
	}
	for _, n := range old {
		if indexOf(l.Order, n) >= 0 {
			continue
		}
		if c, _ := cases.get(n); c != nil {
			if s, ok := c.(string); ok && !used[s] {
				types.del(s)
			}
		}
	}
	opts.set("mappings", mappings)
	swOpts.set("fields", newCases)
	return nil
}

// hexMapper returns a packet name mapper with its "0x1a" keys read as
// decimal ids, for mapperNames; the keys are rewritten by the caller.
func hexMapper(v any) any {
	arr, ok := v.([]any)
	if !ok || len(arr) != 2 {
		return v
	}
	opts, _ := arr[1].(*ordered)
	if opts == nil {
		return v
	}
	mv, _ := opts.get("mappings")
	m, _ := mv.(*ordered)
	if m == nil {
		return v
	}
	dec := newOrdered()
	for _, k := range m.keys {
		id, err := strconv.ParseInt(strings.TrimPrefix(k, "0x"), 16, 32)
		if err != nil {
			return v
		}
		dec.set(strconv.FormatInt(id, 10), m.m[k])
	}
	o := newOrdered()
	for _, k := range opts.keys {
		o.set(k, opts.m[k])
	}
	o.set("mappings", dec)
	return []any{arr[0], o}
}

// applyPatch replaces the part at p.Path, checking that it is p.MD.
func applyPatch(root *ordered, p protocolPatch) error {
	md, err := decodeOrdered(p.MD)
	if err != nil {
		return fmt.Errorf("md: %w", err)
	}
	game, err := decodeOrdered(p.Game)
	if err != nil {
		return fmt.Errorf("game: %w", err)
	}
	cur, set, err := navigate(root, p.Path)
	if err != nil {
		return err
	}
	if !bytes.Equal(mustJSON(cur), mustJSON(md)) {
		return fmt.Errorf("the base's definition is not the one the patch replaces (it is %s)", mustJSON(cur))
	}
	set(game)
	return nil
}

// navigate finds the part of protocol.json a path names: object keys, then
// container fields by name or "@N" by index, switch cases by name, "[]" for
// an array's element. It returns the part and a setter that replaces it.
func navigate(root *ordered, path string) (any, func(any), error) {
	var cur any = root
	set := func(any) {}
	for _, step := range strings.Split(path, ".") {
		switch node := cur.(type) {
		case *ordered:
			v, ok := node.get(step)
			if !ok {
				return nil, nil, fmt.Errorf("no key %q", step)
			}
			cur, set = v, func(x any) { node.set(step, x) }
		case []any:
			if len(node) != 2 {
				return nil, nil, fmt.Errorf("cannot step into %q", step)
			}
			kind, _ := node[0].(string)
			switch kind {
			case "container":
				fields, _ := node[1].([]any)
				found := false
				for i, f := range fields {
					fm, _ := f.(*ordered)
					if fm == nil {
						continue
					}
					name, _ := fm.get("name")
					if name == step || step == "@"+strconv.Itoa(i) {
						t, _ := fm.get("type")
						cur, set, found = t, func(x any) { fm.set("type", x) }, true
						break
					}
				}
				if !found {
					return nil, nil, fmt.Errorf("container has no field %q", step)
				}
			case "array":
				if step != "[]" {
					return nil, nil, fmt.Errorf("cannot step into %q of an array", step)
				}
				opts, _ := node[1].(*ordered)
				t, _ := opts.get("type")
				cur, set = t, func(x any) { opts.set("type", x) }
			case "switch":
				opts, _ := node[1].(*ordered)
				cv, _ := opts.get("fields")
				cases, _ := cv.(*ordered)
				c, ok := cases.get(step)
				if !ok {
					return nil, nil, fmt.Errorf("switch has no case %q", step)
				}
				cur, set = c, func(x any) { cases.set(step, x) }
			default:
				return nil, nil, fmt.Errorf("cannot step into %q of a %s", step, kind)
			}
		default:
			return nil, nil, fmt.Errorf("cannot step into %q", step)
		}
	}
	return cur, set, nil
}

// mapperNames reads a ["mapper",{"type":"varint","mappings":{…}}] as names
// by id, and returns the mapper's options for rewriting.
func mapperNames(v any) ([]string, *ordered, error) {
	arr, ok := v.([]any)
	if !ok || len(arr) != 2 || arr[0] != "mapper" {
		return nil, nil, fmt.Errorf("not a mapper")
	}
	opts, _ := arr[1].(*ordered)
	if opts == nil {
		return nil, nil, fmt.Errorf("a mapper without options")
	}
	mv, _ := opts.get("mappings")
	m, _ := mv.(*ordered)
	if m == nil {
		return nil, nil, fmt.Errorf("a mapper without mappings")
	}
	names := make([]string, len(m.keys))
	for _, k := range m.keys {
		id, err := strconv.Atoi(k)
		s, _ := m.m[k].(string)
		if err != nil || id < 0 || id >= len(names) || names[id] != "" || s == "" {
			return nil, nil, fmt.Errorf("mapper entry %q: %v", k, m.m[k])
		}
		names[id] = s
	}
	return names, opts, nil
}

func mappings(names []string) *ordered {
	m := newOrdered()
	for i, n := range names {
		m.set(strconv.Itoa(i), n)
	}
	return m
}

// registrySwitch rebuilds a registry mapper (the named type enumType, or
// the first field of the container typeName when enumType is "") and the
// container's switch field in the release's order: a new name takes its
// layout from layouts (required when complete, else optional: a particle
// without one carries nothing), a changed one too, a removed one loses its
// case.
func (b *builder) registrySwitch(types *ordered, enumType, typeName, field string, names []string, layouts map[string]json.RawMessage, complete bool) error {
	if len(names) == 0 {
		return fmt.Errorf("the facts list no %s registry", typeName)
	}
	if err := checkUnique(typeName, names); err != nil {
		return err
	}
	names = b.mdNames(names)
	cv, _ := types.get(typeName)
	container, _ := cv.([]any)
	if len(container) != 2 || container[0] != "container" {
		return fmt.Errorf("type %s is not a container", typeName)
	}
	fields, _ := container[1].([]any)
	fieldType := func(f any) any {
		fm, _ := f.(*ordered)
		if fm == nil {
			return nil
		}
		t, _ := fm.get("type")
		return t
	}
	var enumOpts *ordered
	var old []string
	var err error
	if enumType != "" {
		ev, _ := types.get(enumType)
		old, enumOpts, err = mapperNames(ev)
	} else if len(fields) > 0 {
		old, enumOpts, err = mapperNames(fieldType(fields[0]))
	}
	if err != nil {
		return fmt.Errorf("%s's registry: %w", typeName, err)
	}
	var cases *ordered
	for _, f := range fields {
		fm, _ := f.(*ordered)
		if fm == nil {
			continue
		}
		if n, _ := fm.get("name"); n != field {
			continue
		}
		if arr, _ := fieldType(f).([]any); len(arr) == 2 && arr[0] == "switch" {
			if sw, _ := arr[1].(*ordered); sw != nil {
				fv, _ := sw.get("fields")
				cases, _ = fv.(*ordered)
			}
		}
	}
	if cases == nil {
		return fmt.Errorf("%s.%s is not a switch", typeName, field)
	}
	isNew := map[string]bool{}
	for _, n := range names {
		isNew[n] = true
	}
	for _, n := range old {
		if !isNew[n] {
			cases.del(n)
		}
	}
	// New cases go in the release's order, after the base's.
	for _, n := range names {
		raw, ok := layouts[b.reverseMD(n)]
		if !ok {
			if _, has := cases.get(n); !has && complete {
				return fmt.Errorf("%s %s is new and the facts give no layout for it", typeName, n)
			}
			continue
		}
		v, err := decodeOrdered(raw)
		if err != nil {
			return fmt.Errorf("%s layout for %s: %w", typeName, n, err)
		}
		cases.set(n, v)
	}
	for n := range layouts {
		if !isNew[b.mdName(n)] {
			return fmt.Errorf("%s layout for %s, which the release does not have", typeName, n)
		}
	}
	enumOpts.set("mappings", mappings(names))
	return nil
}

// reverseMD is the facts' (the game's) name of a protocol.json name.
func (b *builder) reverseMD(md string) string {
	for game, n := range b.facts.MDNames {
		if n == md {
			return game
		}
	}
	return md
}

// argumentTypes rebuilds the command argument parser mapper (the one whose
// names start with brigadier:bool) from the facts' list.
func (b *builder) argumentTypes(types *ordered) error {
	var found *ordered
	var walk func(v any)
	walk = func(v any) {
		if found != nil {
			return
		}
		switch x := v.(type) {
		case []any:
			if names, opts, err := mapperNames(x); err == nil && len(names) > 0 && names[0] == "brigadier:bool" {
				found = opts
				return
			}
			for _, e := range x {
				walk(e)
			}
		case *ordered:
			for _, k := range x.keys {
				walk(x.m[k])
			}
		}
	}
	cn, _ := types.get("command_node")
	walk(cn)
	if found == nil {
		return fmt.Errorf("command_node has no argument parser mapper")
	}
	names := make([]string, len(b.facts.ArgumentTypes))
	for i, n := range b.mdNames(b.facts.ArgumentTypes) {
		if !strings.Contains(n, ":") {
			n = "minecraft:" + n
		}
		names[i] = n
	}
	if err := checkUnique("argument types", names); err != nil {
		return err
	}
	found.set("mappings", mappings(names))
	return nil
}

func (b *builder) mdName(n string) string {
	if md, ok := b.facts.MDNames[n]; ok {
		return md
	}
	return n
}

func (b *builder) mdNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = b.mdName(n)
	}
	return out
}

func mustJSON(v any) []byte {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return raw
}

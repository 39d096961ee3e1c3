package gen

// Correction is one place where blockmate does not take minecraft-data's
// word. Every correction the generator applies is listed here, with the
// reason, and repeated as a comment in the generated file, so that a reader
// of the tables sees at once where they differ from the source.
type Correction struct {
	// ID is the correction's number in the team's notes
	// (notes/PROTOCOL-CHANGES.md §D), shared with LayoutCorrections.
	ID string
	// Protocols the correction applies to.
	Protocols []int
	State     string // handshaking, status, login, configuration, play
	Direction string // toClient or toServer
	// Drop removes the packet name from that state and direction.
	Drop string
	Why  string
}

// Corrections is the one list of packets the pinned minecraft-data lists
// and the game does not have, checked against the protocol documentation
// (wiki.vg's protocol pages for 1.21, 1.21.2 and 1.21.4) and the game's
// ConfigurationProtocols (1.21.4, 1.21.7), which registers no serverbound
// configuration packet at 0x08 or 0x09 before 1.21.6 adds
// custom_click_action at 0x08.
var Corrections = []Correction{
	{
		ID: "C1", Protocols: []int{767, 768, 769, 770}, State: "configuration", Direction: "toServer", Drop: "custom_report_details",
		Why: "Custom Report Details is clientbound only; minecraft-data also lists it as serverbound 0x08 in configuration",
	},
	{
		ID: "C1", Protocols: []int{767, 768, 769, 770}, State: "configuration", Direction: "toServer", Drop: "server_links",
		Why: "Server Links is clientbound only; minecraft-data also lists it as serverbound 0x09 in configuration",
	},
}

// TypeCorrection replaces one part of a minecraft-data type definition (the
// "types" of protocol.json) with the game's layout. The schema step
// (protodef.go) applies them before it prints the layouts bot/protodef
// reads item stacks, components, entity metadata and particles with. MD is
// minecraft-data's text at Path, checked before the replacement, so that a
// fixed minecraft-data fails the generator until the entry is dropped.
type TypeCorrection struct {
	// ID is the correction's number in notes/PROTOCOL-CHANGES.md §D (C5 …);
	// corrections found while writing the schemas continue the numbering.
	ID        string
	Protocols []int
	// Path names the part: a type name, then container field names and
	// switch case names, "?" for an option's type and "[]" for an array's
	// element, joined by dots.
	Path string
	// MD and Game are protodef JSON: minecraft-data's definition and the
	// game's layout written in protodef's terms.
	MD, Game string
	Why      string
}

func (c TypeCorrection) applies(protocol int) bool {
	for _, p := range c.Protocols {
		if p == protocol {
			return true
		}
	}
	return false
}

// TypeCorrections are the known mistakes in the pinned minecraft-data's
// item stack, component, metadata and particle layouts, each checked
// against the decompiled game (sources in notes/PROTOCOL-CHANGES.md).
var TypeCorrections = []TypeCorrection{
	{
		ID: "C5", Protocols: []int{767, 768, 769, 770, 771, 772},
		Path: "entityMetadataEntry.value.optional_global_pos",
		MD:   `["option","string"]`,
		Game: `["option",["container",[{"name":"dimensionName","type":"string"},{"name":"location","type":"position"}]]]`,
		Why:  "the game's EntityDataSerializers.OPTIONAL_GLOBAL_POS is Optional<GlobalPos>, a dimension identifier and a packed position (1.21.1 and 1.21.4 GlobalPos.STREAM_CODEC); minecraft-data fixed it at 1.21.9",
	},
	{
		ID: "C6", Protocols: []int{768},
		Path: "SlotComponent.data.custom_model_data",
		MD:   `["container",[{"name":"floats","type":["array",{"countType":"varint","type":"f32"}]},{"name":"flags","type":["array",{"countType":"varint","type":"bool"}]},{"name":"strings","type":["array",{"countType":"varint","type":"string"}]},{"name":"colors","type":["array",{"countType":"varint","type":"i32"}]}]]`,
		Game: `"varint"`,
		Why:  "1.21.3's CustomModelData is a record of one int sent as a VarInt; the lists of floats, flags, strings and colours arrive with 1.21.4",
	},
	{
		ID: "C7", Protocols: []int{768},
		Path: "BannerPatternLayer.pattern",
		MD:   `"ItemSoundHolder"`,
		Game: `["registryEntryHolder",{"baseName":"patternId","otherwise":{"name":"data","type":"BannerPattern"}}]`,
		Why:  "1.21.3's BannerPatternLayers.Layer.STREAM_CODEC reads a Holder<BannerPattern> (inline: asset id and translation key), not a sound event",
	},
	// Found while writing the schemas, by reading every component's
	// STREAM_CODEC in the decompiled game of 1.21.1, 1.21.3, 1.21.4, 1.21.7,
	// 1.21.11 and 26.1.2 beside minecraft-data's layout.
	{
		ID: "C12", Protocols: []int{770, 771, 772, 773},
		Path: "DataComponentMatchers.partialMatchers",
		MD:   `["array",{"countType":"varint","type":"varint"}]`,
		Game: `["array",{"countType":"varint","type":["container",[{"name":"type","type":"varint"},{"name":"predicate","type":"anonymousNbt"}]]}]`,
		Why:  "a partial matcher is a predicate type id and the predicate's value as NBT (1.21.7 DataComponentPredicate.SINGLE_STREAM_CODEC: a registry dispatch to ByteBufCodecs.fromCodecWithRegistries; the same in a 1.21.9/1.21.10 decompile), not a bare id",
	},
	{
		ID: "C12", Protocols: []int{774, 775, 776, 777},
		Path: "DataComponentMatchers.partialMatchers",
		MD:   `["array",{"countType":"varint","type":"varint"}]`,
		Game: `["array",{"countType":"varint","type":["container",[{"name":"isPredicateType","type":"bool"},{"name":"type","type":"varint"},{"name":"predicate","type":"anonymousNbt"}]]}]`,
		Why:  "from 1.21.11 a partial matcher's type is either a predicate type or a component type (a boolean, then the registry id: 1.21.11 ComponentPredicate.Type.PACKET_CODEC, 26.1.2 DataComponentPredicate.Type.STREAM_CODEC), then its value as NBT",
	},
	{
		ID: "C13", Protocols: []int{767, 768, 769, 770, 771, 772, 773, 774, 775, 776, 777},
		Path: "ItemBlockPredicate.nbt",
		MD:   `"anonOptionalNbt"`,
		Game: `["option","anonymousNbt"]`,
		Why:  "BlockPredicate.STREAM_CODEC writes ByteBufCodecs.optional(NbtPredicate.STREAM_CODEC): a presence boolean, then a compound (1.21.1 to 26.1.2), not NBT whose TAG_End means none",
	},
	{
		ID: "C14", Protocols: []int{767, 768, 769, 770, 771, 772, 773, 774, 775, 776, 777},
		Path: "ItemBlockProperty.value.false",
		MD:   `["container",[{"name":"minValue","type":"string"},{"name":"maxValue","type":"string"}]]`,
		Game: `["container",[{"name":"minValue","type":["option","string"]},{"name":"maxValue","type":["option","string"]}]]`,
		Why:  "StatePropertiesPredicate.RangedMatcher.STREAM_CODEC writes both bounds as optional strings (1.21.1 to 26.1.2)",
	},
	{
		ID: "C15", Protocols: []int{767},
		Path: "EntityMetadataPaintingVariant",
		MD:   `["container",[{"name":"width","type":"i32"},{"name":"height","type":"i32"},{"name":"assetId","type":"string"},{"name":"title","type":["option","anonymousNbt"]},{"name":"author","type":["option","anonymousNbt"]}]]`,
		Game: `["container",[{"name":"width","type":"varint"},{"name":"height","type":"varint"},{"name":"assetId","type":"string"}]]`,
		Why:  "1.21.1's PaintingVariant.DIRECT_STREAM_CODEC is width and height as VarInts and the asset id; title and author arrive with 1.21.2",
	},
	{
		ID: "C15", Protocols: []int{768, 769, 770, 771, 772, 773, 774, 775, 776, 777},
		Path: "EntityMetadataPaintingVariant",
		MD:   `["container",[{"name":"width","type":"i32"},{"name":"height","type":"i32"},{"name":"assetId","type":"string"},{"name":"title","type":["option","anonymousNbt"]},{"name":"author","type":["option","anonymousNbt"]}]]`,
		Game: `["container",[{"name":"width","type":"varint"},{"name":"height","type":"varint"},{"name":"assetId","type":"string"},{"name":"title","type":["option","anonymousNbt"]},{"name":"author","type":["option","anonymousNbt"]}]]`,
		Why:  "PaintingVariant.DIRECT_STREAM_CODEC writes width and height as VarInts, not ints (1.21.3, 1.21.4, 1.21.7, 1.21.11, 26.1.2)",
	},
	{
		ID: "C16", Protocols: []int{767},
		Path: "SlotComponent.data.food.usingConvertsTo",
		MD:   `"Slot"`,
		Game: `["option","Slot"]`,
		Why:  "1.21.1's FoodProperties.DIRECT_STREAM_CODEC writes ItemStack.STREAM_CODEC.apply(ByteBufCodecs::optional): a presence boolean, then a stack",
	},
	{
		ID: "C17", Protocols: []int{767},
		Path: "SlotComponent.data.potion_contents",
		MD:   `["container",[{"name":"potionId","type":["option","varint"]},{"name":"customColor","type":["option","i32"]},{"name":"customEffects","type":["array",{"countType":"varint","type":"ItemPotionEffect"}]},{"name":"customName","type":["option","string"]}]]`,
		Game: `["container",[{"name":"potionId","type":["option","varint"]},{"name":"customColor","type":["option","i32"]},{"name":"customEffects","type":["array",{"countType":"varint","type":"ItemPotionEffect"}]}]]`,
		Why:  "1.21.1's PotionContents.STREAM_CODEC has no custom name; it arrives with 1.21.2",
	},
	{
		ID: "C18", Protocols: []int{767},
		Path: "InstrumentData",
		MD:   `["container",[{"name":"soundEvent","type":"ItemSoundHolder"},{"name":"useDuration","type":"f32"},{"name":"range","type":"f32"},{"name":"description","type":"anonymousNbt"}]]`,
		Game: `["container",[{"name":"soundEvent","type":"ItemSoundHolder"},{"name":"useDuration","type":"varint"},{"name":"range","type":"f32"}]]`,
		Why:  "1.21.1's Instrument.DIRECT_STREAM_CODEC is a sound, the use duration as a VarInt and the range; the float duration and the description arrive with 1.21.2",
	},
	{
		ID: "C19", Protocols: []int{767},
		Path: "ArmorTrimMaterial",
		MD:   `["container",[{"name":"assetName","type":"string"},{"name":"ingredientId","type":"varint"},{"name":"overrideArmorAssets","type":["array",{"countType":"varint","type":["container",[{"name":"key","type":"string"},{"name":"value","type":"string"}]]}]},{"name":"description","type":"anonymousNbt"}]]`,
		Game: `["container",[{"name":"assetName","type":"string"},{"name":"ingredientId","type":"varint"},{"name":"itemModelIndex","type":"f32"},{"name":"overrideArmorAssets","type":["array",{"countType":"varint","type":["container",[{"name":"key","type":"varint"},{"name":"value","type":"string"}]]}]},{"name":"description","type":"anonymousNbt"}]]`,
		Why:  "1.21.1's TrimMaterial.DIRECT_STREAM_CODEC has an item model index (float) after the ingredient, and its overrides are keyed by armor material registry id",
	},
	{
		ID: "C19", Protocols: []int{768},
		Path: "ArmorTrimMaterial",
		MD:   `["container",[{"name":"assetName","type":"string"},{"name":"ingredientId","type":"varint"},{"name":"overrideArmorAssets","type":["array",{"countType":"varint","type":["container",[{"name":"key","type":"string"},{"name":"value","type":"string"}]]}]},{"name":"description","type":"anonymousNbt"}]]`,
		Game: `["container",[{"name":"assetName","type":"string"},{"name":"ingredientId","type":"varint"},{"name":"itemModelIndex","type":"f32"},{"name":"overrideArmorAssets","type":["array",{"countType":"varint","type":["container",[{"name":"key","type":"string"},{"name":"value","type":"string"}]]}]},{"name":"description","type":"anonymousNbt"}]]`,
		Why:  "1.21.3's TrimMaterial.DIRECT_STREAM_CODEC has an item model index (float) after the ingredient; it goes with 1.21.4",
	},
	{
		ID: "C20", Protocols: []int{767},
		Path: "Particle.data.dust_color_transition",
		MD:   `["container",[{"name":"fromRed","type":"f32"},{"name":"fromGreen","type":"f32"},{"name":"fromBlue","type":"f32"},{"name":"scale","type":"f32"},{"name":"toRed","type":"f32"},{"name":"toGreen","type":"f32"},{"name":"toBlue","type":"f32"}]]`,
		Game: `["container",[{"name":"fromRed","type":"f32"},{"name":"fromGreen","type":"f32"},{"name":"fromBlue","type":"f32"},{"name":"toRed","type":"f32"},{"name":"toGreen","type":"f32"},{"name":"toBlue","type":"f32"},{"name":"scale","type":"f32"}]]`,
		Why:  "1.21.1's DustColorTransitionOptions.STREAM_CODEC writes the two colours, then the scale (the same 28 bytes, read into the wrong fields by minecraft-data's order)",
	},
	{
		ID: "C22", Protocols: []int{767, 768, 769, 770, 771, 772, 773, 774, 775, 776, 777},
		Path: "ItemWrittenBookPage.filteredContent",
		MD:   `"anonOptionalNbt"`,
		Game: `["option","anonymousNbt"]`,
		Why:  "a written book page is Filterable.streamCodec(ComponentSerialization.STREAM_CODEC): the raw text, then ByteBufCodecs.optional of the filtered text, a presence boolean before its NBT (1.21.1 to 26.1.2)",
	},
	{
		ID: "C21", Protocols: []int{775, 776, 777},
		Path: "SlotComponent.data.damage_type",
		MD:   `["container",[{"name":"hasHolder","type":"bool"},{"name":"damageType","type":["switch",{"compareTo":"hasHolder","fields":{"true":["registryEntryHolder",{"baseName":"damageTypeId","otherwise":{"name":"data","type":"DamageTypeData"}}],"false":"string"}}]}]]`,
		Game: `"varint"`,
		Why:  "26.1.2's damage_type component is DamageType.STREAM_CODEC, ByteBufCodecs.holderRegistry: a plain registry id (1.21.11's either-of-holder-or-key form is gone)",
	},
	{
		ID: "C21", Protocols: []int{775, 776, 777},
		Path: "SlotComponent.data.damage_resistant",
		MD:   `"string"`,
		Game: `"IDSet"`,
		Why:  "26.1.2's DamageResistant.STREAM_CODEC is ByteBufCodecs.holderSet(DAMAGE_TYPE), not a tag key",
	},
	{
		ID: "C21", Protocols: []int{775, 776, 777},
		Path: "SlotComponent.data.instrument",
		MD:   `["container",[{"name":"hasHolder","type":"bool"},{"name":"data","type":["switch",{"compareTo":"hasHolder","fields":{"true":["registryEntryHolder",{"baseName":"instrumentId","otherwise":{"name":"data","type":"InstrumentData"}}],"false":"string"}}]}]]`,
		Game: `["registryEntryHolder",{"baseName":"instrumentId","otherwise":{"name":"data","type":"InstrumentData"}}]`,
		Why:  "26.1.2's InstrumentComponent.STREAM_CODEC is Instrument.STREAM_CODEC, a plain holder (no either-of-holder-or-key boolean)",
	},
	{
		ID: "C21", Protocols: []int{775, 776, 777},
		Path: "SlotComponent.data.provides_trim_material",
		MD:   `["container",[{"name":"hasHolder","type":"bool"},{"name":"material","type":["switch",{"compareTo":"hasHolder","fields":{"true":["registryEntryHolder",{"baseName":"materialId","otherwise":{"name":"data","type":"ArmorTrimMaterial"}}],"false":"string"}}]}]]`,
		Game: `["registryEntryHolder",{"baseName":"materialId","otherwise":{"name":"data","type":"ArmorTrimMaterial"}}]`,
		Why:  "26.1.2's provides_trim_material component is TrimMaterial.STREAM_CODEC, a plain holder",
	},
	{
		ID: "C21", Protocols: []int{775, 776, 777},
		Path: "SlotComponent.data.jukebox_playable",
		MD:   `["container",[{"name":"hasHolder","type":"bool"},{"name":"song","type":["switch",{"compareTo":"hasHolder","fields":{"true":["registryEntryHolder",{"baseName":"songId","otherwise":{"name":"data","type":"JukeboxSongData"}}],"false":"string"}}]}]]`,
		Game: `["registryEntryHolder",{"baseName":"songId","otherwise":{"name":"data","type":"JukeboxSongData"}}]`,
		Why:  "26.1.2's JukeboxPlayable.STREAM_CODEC is JukeboxSong.STREAM_CODEC, a plain holder",
	},
	{
		ID: "C21", Protocols: []int{775, 776, 777},
		Path: "SlotComponent.data.provides_banner_patterns",
		MD:   `"string"`,
		Game: `"IDSet"`,
		Why:  "26.1.2's provides_banner_patterns component is ByteBufCodecs.holderSet(BANNER_PATTERN), not a tag key",
	},
	{
		ID: "C21", Protocols: []int{775, 776, 777},
		Path: "SlotComponent.data.chicken/variant",
		MD:   `["registryEntryHolder",{"baseName":"variantId","otherwise":{"name":"variantData","type":"string"}}]`,
		Game: `"varint"`,
		Why:  "26.1.2's ChickenVariant.STREAM_CODEC is ByteBufCodecs.holderRegistry: a plain registry id, with no inline form",
	},
	{
		ID: "C21", Protocols: []int{775, 776, 777},
		Path: "SlotComponent.data.chicken/sound_variant",
		MD:   `["registryEntryHolder",{"baseName":"variantId","otherwise":{"name":"variantData","type":"string"}}]`,
		Game: `"varint"`,
		Why:  "26.1.2's ChickenSoundVariant.STREAM_CODEC is ByteBufCodecs.holderRegistry: a plain registry id",
	},
	{
		ID: "C21", Protocols: []int{775, 776, 777},
		Path: "SlotComponent.data.zombie_nautilus/variant",
		MD:   `["registryEntryHolder",{"baseName":"variantId","otherwise":{"name":"variantData","type":"string"}}]`,
		Game: `"varint"`,
		Why:  "26.1.2's ZombieNautilusVariant.STREAM_CODEC is ByteBufCodecs.holderRegistry: a plain registry id",
	},
}

// The corrections above that name 776 hold for 26.2 as for 26.1: the
// emitted 26.2 protocol.json is minecraft-data 26.1's with the facts of
// sources/26.2.json applied, so it repeats 26.1's mistakes, and 26.2 did
// not change those layouts (ViaVersion's Protocol26_1To26_2 registers the
// same data component keys as for 26.1, DAMAGE_TYPE26_1, INSTRUMENT26_1
// and the rest, and rewrites none of those packets).
//
// Those that name 777 hold for 26.3 too: its decompiled DataComponents
// registers the same codecs for damage_type (DamageType.STREAM_CODEC),
// damage_resistant, provides_banner_patterns (ByteBufCodecs.holderSet),
// provides_trim_material (TrimMaterial.STREAM_CODEC, a plain holder) and
// the instrument, jukebox and variant components, and ViaVersion's
// Protocol26_2To26_3 (155863a4) keeps DAMAGE_TYPE26_1,
// JUKEBOX_PLAYABLE26_1, PROVIDES_BANNER_PATTERNS26_1, CHICKEN_VARIANT26_1
// and ZOMBIE_NAUTILUS_VARIANT26_1 for 26.3. The emitted 26.3 protocol.json
// is the emitted 26.2's with sources/26.3.json applied, so it carries the
// same mistakes; what 26.3 changed inside those types (an instrument's
// durability damage, a trim material's palette id) is in sources/26.3.json.

// Copy names the old block or entity a new one of an emitted release
// takes what no source gives from. For a block: its material (the tool
// that mines it fast), harvest tools, light, transparency, bounding box
// and collision shape (state by state, matched by property values); the
// sources give its hardness, resistance, tool requirement (checked against
// the copy's), default state and name. For an entity: its type, category
// and metadata keys; the sources give its size and name.
type Copy struct {
	Protocols []int
	New, From string
	// ShapeFrom, when set, is the block whose collision shapes (state by
	// state) the new block takes instead of From's: 26.3's wool and
	// concrete stairs and slabs are wool and concrete in every other way.
	ShapeFrom string
	Why       string
}

func copyFor(list []Copy, protocol int, name string) (string, bool) {
	for _, c := range list {
		if c.New != name {
			continue
		}
		for _, p := range c.Protocols {
			if p == protocol {
				return c.From, true
			}
		}
	}
	return "", false
}

// BlockCopies: 26.2's sulfur and cinnabar sets have tuff's strength (1.5,
// 6.0), need a pickaxe to drop (azalea's requires_correct_tool_for_drops,
// mineable/pickaxe and no needs_*_tool tag in azalea-registry's block
// tags, as tuff), and are the shapes of tuff's set (azalea's collision
// table agrees state by state); sulfur spike has pointed dripstone's
// properties, strength (1.5, 3.0) and shapes. Where azalea and
// minecraft-data disagree, minecraft-data is followed: it gives pointed
// dripstone's and bamboo's collision boxes with the block's random
// horizontal offset applied, azalea without; sulfur spike follows pointed
// dripstone as minecraft-data writes it, so that the bot treats both alike.
var BlockCopies = func() []Copy {
	var out []Copy
	why := "tuff's set: the same strength, tool and shapes (azalea generated.rs, block tags, collision table)"
	for _, fam := range []string{"sulfur", "cinnabar"} {
		pairs := [][2]string{
			{fam, "tuff"}, {fam + "_slab", "tuff_slab"}, {fam + "_stairs", "tuff_stairs"}, {fam + "_wall", "tuff_wall"},
			{"polished_" + fam, "polished_tuff"}, {"polished_" + fam + "_slab", "polished_tuff_slab"},
			{"polished_" + fam + "_stairs", "polished_tuff_stairs"}, {"polished_" + fam + "_wall", "polished_tuff_wall"},
			{fam + "_bricks", "tuff_bricks"}, {fam + "_brick_slab", "tuff_brick_slab"}, {fam + "_brick_stairs", "tuff_brick_stairs"},
			{fam + "_brick_wall", "tuff_brick_wall"}, {"chiseled_" + fam, "chiseled_tuff"},
		}
		for _, p := range pairs {
			out = append(out, Copy{Protocols: []int{776}, New: p[0], From: p[1], Why: why})
		}
	}
	out = append(out,
		Copy{Protocols: []int{776}, New: "potent_sulfur", From: "tuff", Why: "a full stone block of tuff's strength and tool; its five states (dry … continuous) all take tuff's full cube, as azalea's collision table has them"},
		Copy{Protocols: []int{776}, New: "sulfur_spike", From: "pointed_dripstone", Why: "the same properties (thickness, vertical_direction, waterlogged), strength and shapes"},
	)
	return out
}()

// BlockCopies777 are 26.3's new blocks. The decompiled 26.3 game (the
// release: its SharedConstants say protocol 777, world version 5023, not a
// snapshot) was read for packets and components, not for block properties,
// and the release's blocks.json (PrismarineJS data/pc/26.3, 50966a4e) was
// read only where it shows the registry's order; so every value the
// emitted 26.3 blocks.json gives a new block but its states (ViaVersion's
// Mappings) is its copy's: hardness, resistance, the tool it needs, its
// default state, and its shapes. The poplar set copies the oak set block
// for block; the wool and concrete stairs and slabs are their wool or
// concrete (strength, tool: shears and hands for wool, a pickaxe for
// concrete) in the shapes of oak's and stone's stairs and slabs.
var BlockCopies777 = func() []Copy {
	var out []Copy
	oak := "the oak set's block of the same kind: strength, tool, light and shapes"
	for _, kind := range []string{"planks", "sapling", "log", "wood", "shelf", "sign", "wall_sign", "hanging_sign", "wall_hanging_sign",
		"pressure_plate", "trapdoor", "button", "stairs", "slab", "fence_gate", "fence", "door"} {
		out = append(out, Copy{Protocols: []int{777}, New: "poplar_" + kind, From: "oak_" + kind, Why: oak})
	}
	out = append(out,
		Copy{Protocols: []int{777}, New: "stripped_poplar_log", From: "stripped_oak_log", Why: oak},
		Copy{Protocols: []int{777}, New: "stripped_poplar_wood", From: "stripped_oak_wood", Why: oak},
		Copy{Protocols: []int{777}, New: "potted_poplar_sapling", From: "potted_oak_sapling", Why: oak},
	)
	for _, c := range []string{"red", "orange", "yellow"} {
		out = append(out, Copy{Protocols: []int{777}, New: c + "_poplar_leaves", From: "oak_leaves", Why: "leaves: the same properties (distance, persistent, waterlogged), strength and shapes"})
	}
	out = append(out,
		Copy{Protocols: []int{777}, New: "straw_bed", From: "white_bed", Why: "a bed: the same properties (facing, occupied, part), strength and shapes"},
		Copy{Protocols: []int{777}, New: "red_shrub", From: "dead_bush", Why: "a plant without properties that nothing collides with"},
		Copy{Protocols: []int{777}, New: "shelf_mushroom", From: "cocoa", Why: "the only old block with an age and a facing (cocoa's age has three values, the shelf mushroom's two); its strength and small shapes are a guess no source confirms, on the side of a block the bot walks around"},
	)
	for _, c := range []string{"white", "orange", "magenta", "light_blue", "yellow", "lime", "pink", "gray", "light_gray", "cyan", "purple", "blue", "brown", "green", "red", "black"} {
		out = append(out,
			Copy{Protocols: []int{777}, New: c + "_wool_stairs", From: c + "_wool", ShapeFrom: "oak_stairs", Why: "wool in the shapes of stairs"},
			Copy{Protocols: []int{777}, New: c + "_wool_slab", From: c + "_wool", ShapeFrom: "oak_slab", Why: "wool in the shapes of a slab"},
			Copy{Protocols: []int{777}, New: c + "_concrete_stairs", From: c + "_concrete", ShapeFrom: "stone_stairs", Why: "concrete in the shapes of stairs"},
			Copy{Protocols: []int{777}, New: c + "_concrete_slab", From: c + "_concrete", ShapeFrom: "stone_slab", Why: "concrete in the shapes of a slab"},
		)
	}
	return out
}()

// EntityCopies: 26.2's sulfur cube is a cube mob like the slime and the
// magma cube (ViaVersion's EntityTypes26_2 puts the three under
// ABSTRACT_CUBE_MOB; azalea-entity's metadata tree agrees). Whether the
// game counts it a monster (the slime's mob category, which the bot's
// hostile scan reads) no source used says: it can be caught in a bucket,
// which no hostile mob can, and a hot one burns. Copying the slime's
// category makes the bot warn of a sulfur cube nearby, the cautious side
// of not knowing.
var EntityCopies = []Copy{
	{Protocols: []int{776}, New: "sulfur_cube", From: "slime", Why: "a cube mob as the slime (ViaVersion EntityTypes26_2.ABSTRACT_CUBE_MOB); its mob category is not in any source, the slime's hostile one is the cautious guess"},
	{Protocols: []int{777}, New: "cushion", From: "leash_knot", Why: "an immobile thing of type other, as PrismarineJS's 26.3 entities.json (27dfdfd9) has the cushion; its size (1 × 0.25) is from there, its colour metadata is not copied"},
	{Protocols: []int{777}, New: "poplar_boat", From: "oak_boat", Why: "a boat (its size, 1.375 × 0.5625, as every boat's in PrismarineJS's 26.3 entities.json)"},
	{Protocols: []int{777}, New: "poplar_chest_boat", From: "oak_chest_boat", Why: "a chest boat (size as every boat's)"},
}

// Where the sources of the emitted releases disagree, and which one the
// facts follow (sources/*.json names each source's commit):
//
//   - 26.2 team parameters: minecraft-data's automated pc_26_2 branch keeps
//     26.1's order (flags after the name, a VarInt colour); ViaVersion's
//     Protocol26_1To26_2 and azalea's ClientboundSetPlayerTeam agree on the
//     new order (prefix and suffix first, an optional colour, the flags
//     last). Followed: ViaVersion and azalea.
//   - 26.2 registries in protocol.json (data components, particles,
//     attributes): the pc_26_2 branch keeps 26.1's lists; ViaVersion's
//     Mappings and azalea-registry agree entry for entry on the new ones.
//     Followed: Mappings.
//   - 26.2 login success and play login: all three agree (the session id;
//     the online-mode flag before enforcesSecureChat).
//   - Collision boxes of randomly offset blocks (bamboo, pointed dripstone,
//     and so 26.2's sulfur spike): minecraft-data applies the offset,
//     azalea does not; minecraft-data is followed (BlockCopies).
//   - 26.3 command argument types: PixiGeko's snapshot-10 comparison adds
//     number_provider, ViaVersion/Mappings' snapshot-9 file has neither it
//     nor the release's two; the decompiled release's ArgumentTypeInfos has
//     context_float_provider and context_int_provider after loot_modifier
//     and no number_provider (62 types). Followed: the release.
//   - 26.3 registries: Mappings' file is snapshot-9's, five steps before
//     the release have no public comparison. The decompiled release's
//     DataComponents equals it entry for entry; PrismarineJS's 26.3
//     blocks.json and items.json (read in parts: blocks 0-32 and 193-222,
//     items 1160-1334 and the last) equal it with snapshot-10's five
//     renamed maps, and both end where it does (1,286 blocks, 35,723
//     states, 1,658 items). Followed: Mappings, with the renames.
//   - 26.3 entity metadata types: Fidorial's rc-3 protocol.json has 26.2's
//     list; the decompiled EntityDataSerializers, ViaVersion's
//     EntityDataTypes26_3 and ViaBackwards (which drops dyeColorType) have
//     dye_color at 43. Followed: the three.
//   - 26.3 data component layouts: a ViaVersion fork (HyperGaming99) gives
//     layouts for the 13 new components; they are not used: every layout is
//     read from the decompiled release's codecs, and ViaVersion's
//     Protocol26_2To26_3 (155863a4) names the same new and changed keys.
//   - 26.3 entity position sync: the decompiled packet names a
//     PositionPath, whose class is not in the index; ViaBackwards reads
//     both of its forms (0 a position, else steps) and ViaVersion writes
//     the stepped one. Followed: ViaBackwards and ViaVersion.

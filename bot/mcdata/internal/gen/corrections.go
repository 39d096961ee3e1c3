package gen

// Correction is one place where blockmate does not take minecraft-data's
// word. Every correction the generator applies is listed here, with the
// reason, and repeated as a comment in the generated file, so that a reader
// of the tables sees at once where they differ from the source.
type Correction struct {
	// Protocols the correction applies to.
	Protocols []int
	State     string // handshaking, status, login, configuration, play
	Direction string // toClient or toServer
	// Drop removes the packet name from that state and direction.
	Drop string
	Why  string
}

// Corrections is the one list of known mistakes in the pinned
// minecraft-data, checked against the protocol documentation (wiki.vg's
// protocol pages for 1.21, 1.21.2 and 1.21.4).
var Corrections = []Correction{
	{
		Protocols: []int{767, 768, 769}, State: "configuration", Direction: "toServer", Drop: "custom_report_details",
		Why: "Custom Report Details is clientbound only; minecraft-data also lists it as serverbound 0x08 in configuration",
	},
	{
		Protocols: []int{767, 768, 769}, State: "configuration", Direction: "toServer", Drop: "server_links",
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
}

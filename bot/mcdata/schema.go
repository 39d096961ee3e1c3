package mcdata

// schemaDef is one named type's definition in the grammar of
// bot/protodef/parse.go.
type schemaDef struct{ name, text string }

// SchemaType is one named type of a protocol's schema: the layouts of item
// stacks, data components, entity metadata values and particles, generated
// from minecraft-data's protocol.json with the corrections of
// bot/mcdata/internal/gen/corrections.go applied.
type SchemaType struct {
	Name string
	// Def is the definition in the grammar of bot/protodef/parse.go.
	Def string
}

// Schema returns a protocol's named types sorted by name, or nil when the
// tables do not cover the protocol. bot/protodef parses them; nothing else
// needs to.
func Schema(protocol int32) []SchemaType {
	ids, ok := schemaVersions[protocol]
	if !ok {
		return nil
	}
	out := make([]SchemaType, len(ids))
	for i, id := range ids {
		out[i] = SchemaType{schemaDefs[id].name, schemaDefs[id].text}
	}
	return out
}

// SchemaProtocols lists the protocols Schema covers, oldest first.
func SchemaProtocols() []int32 {
	out := make([]int32, 0, len(schemaVersions))
	for p := range schemaVersions {
		out = append(out, p)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// SchemaCorrection is one place where the schemas do not take
// minecraft-data's word (bot/mcdata/internal/gen/corrections.go): the
// part at Path has the game's layout in the listed protocols.
type SchemaCorrection struct {
	ID        string
	Protocols []int32
	Path      string
	Why       string
}

// SchemaCorrections lists the type corrections the schemas carry.
func SchemaCorrections() []SchemaCorrection {
	return append([]SchemaCorrection(nil), schemaCorrections...)
}

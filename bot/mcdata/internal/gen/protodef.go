package gen

// The protodef step: the layouts of item stacks, their data components,
// entity metadata values and particles, per protocol, from the types of
// minecraft-data's protocol.json, for the interpreter in bot/protodef.
//
// Clientbound item stacks are not delimited from 1.20.5 on: every component
// of every version must be read exactly, or the rest of the packet is lost.
// Typing ~100 layouts × 9 versions by hand is what this step avoids. It
// takes the closure of a few root types (schemaRoots), applies the type
// corrections of corrections.go, resolves what protodef leaves to run time
// (switch discriminants and array counts become sibling-field references,
// switch keys become integers), and prints each named type in a compact
// text form (the grammar is in bot/protodef/parse.go). The cases of the big
// switches (one per component type, metadata type and particle type) are
// hoisted into named types of their own, "SlotComponent.damage", so that a
// layout shared by several versions is stored once and a reader of the
// generated file sees per version exactly which layouts changed.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// schemaRoots are the types the bot decodes with the interpreter; every
// type they use comes along. A root a version lacks is skipped
// (UntrustedSlot and HashedSlot start at 770, ItemStackTemplate at 775).
var schemaRoots = []string{
	"Slot", "UntrustedSlot", "HashedSlot", "ItemStackTemplate",
	"SlotComponentType", "SlotComponent", "entityMetadataEntry", "Particle",
}

// schemaHoist names the root containers whose switch field's cases become
// named types of their own.
var schemaHoist = map[string]string{"SlotComponent": "data", "entityMetadataEntry": "value", "Particle": "data"}

// schemaComplete are the hoisted switches that must have a case for every
// value of their enum: a component or metadata type without one would read
// as nothing and misread the rest of the packet. (Particles without a case
// are the game's simple particles, which carry nothing.)
var schemaComplete = map[string]bool{"SlotComponent": true, "entityMetadataEntry": true}

// schemaPrims maps minecraft-data's native and alias types to the
// interpreter's primitives. anonymousNbt and anonOptionalNbt are the same
// bytes (a TAG_End type byte reads as no value).
var schemaPrims = map[string]string{
	"void": "void", "bool": "bool", "i8": "i8", "u8": "u8", "i16": "i16", "u16": "u16",
	"i32": "i32", "u32": "u32", "i64": "i64", "u64": "u64", "f32": "f32", "f64": "f64",
	"varint": "varint", "varlong": "varlong", "string": "string", "ByteArray": "bytes",
	"UUID": "uuid", "anonymousNbt": "nbt", "anonOptionalNbt": "nbt", "optvarint": "optvarint",
	"position": "position",
}

// pdNode is one parsed protodef type.
type pdNode struct {
	kind   string // a primitive, or ref, container, array, option, enum, switch, holder, holderset, fixed
	ref    string
	fields []pdField
	elem   *pdNode
	count  string // array: the sibling field holding the count; "" for a VarInt prefix
	fixed  int
	enum   map[int64]string
	disc   string
	cases  map[int64]*pdNode
	def    *pdNode
	base   string
	baseT  *pdNode
	other  string
	otherT *pdNode
}

type pdField struct {
	name string // "" for an anonymous field
	t    *pdNode
}

// schemaVersion is one protocol's named types, name → printed definition.
type schemaVersion struct {
	protocol int
	data     string
	types    map[string]string
}

// generateSchemas prints the schemas of every release of the one release
// list.
func generateSchemas(d *dataSet, version string, releases []release) ([]byte, error) {
	var versions []schemaVersion
	for _, r := range releases {
		p, data := r.protocol, r.data
		var proto struct {
			Types map[string]json.RawMessage `json:"types"`
		}
		if err := d.readJSON(data+"/protocol.json", &proto); err != nil {
			return nil, err
		}
		raw := map[string]any{}
		for name, def := range proto.Types {
			var v any
			if err := json.Unmarshal(def, &v); err != nil {
				return nil, fmt.Errorf("%s type %s: %w", data, name, err)
			}
			raw[name] = v
		}
		if err := correctTypes(p, raw); err != nil {
			return nil, err
		}
		types, err := schemaTypes(raw)
		if err != nil {
			return nil, fmt.Errorf("%s (protocol %d): %w", data, p, err)
		}
		versions = append(versions, schemaVersion{protocol: p, data: data, types: types})
	}
	return printSchemas(versions, version)
}

// protocolFolder is the protocol.json folder of the newest release of a
// protocol that minecraft-data has data for.
// correctTypes applies the type corrections for one protocol to the raw
// types. A correction whose minecraft-data side no longer matches fails the
// generator, so a fixed minecraft-data is noticed and the entry dropped.
func correctTypes(protocol int, raw map[string]any) error {
	for _, c := range TypeCorrections {
		if !c.applies(protocol) {
			continue
		}
		var md, game any
		if err := json.Unmarshal([]byte(c.MD), &md); err != nil {
			return fmt.Errorf("correction %s: its MD text is not JSON: %w", c.ID, err)
		}
		if err := json.Unmarshal([]byte(c.Game), &game); err != nil {
			return fmt.Errorf("correction %s: its Game text is not JSON: %w", c.ID, err)
		}
		steps := strings.Split(c.Path, ".")
		root, ok := raw[steps[0]]
		if !ok {
			return fmt.Errorf("correction %s for protocol %d: minecraft-data has no type %s; drop or fix it in corrections.go", c.ID, protocol, steps[0])
		}
		got, set, err := locate(root, steps[1:], func(v any) { raw[steps[0]] = v })
		if err != nil {
			return fmt.Errorf("correction %s for protocol %d (%s): %w", c.ID, protocol, c.Path, err)
		}
		if !reflect.DeepEqual(got, md) {
			gotText, _ := json.Marshal(got)
			return fmt.Errorf("correction %s for protocol %d no longer matches minecraft-data at %s (it has %s): drop or fix it in corrections.go", c.ID, protocol, c.Path, gotText)
		}
		set(game)
	}
	return nil
}

// locate finds the part of a raw protodef type a path names: container
// fields and switch cases by name, "?" for an option's type, "[]" for an
// array's element. It returns the part and a setter that replaces it.
func locate(v any, steps []string, set func(any)) (any, func(any), error) {
	for _, step := range steps {
		arr, ok := v.([]any)
		if !ok || len(arr) != 2 {
			return nil, nil, fmt.Errorf("cannot step into %q: not a composite type", step)
		}
		kind, _ := arr[0].(string)
		switch {
		case kind == "container":
			fields, _ := arr[1].([]any)
			found := false
			for _, f := range fields {
				fm, _ := f.(map[string]any)
				if fm["name"] == step {
					v, set, found = fm["type"], func(x any) { fm["type"] = x }, true
					break
				}
			}
			if !found {
				return nil, nil, fmt.Errorf("container has no field %q", step)
			}
		case kind == "switch":
			opts, _ := arr[1].(map[string]any)
			cases, _ := opts["fields"].(map[string]any)
			c, ok := cases[step]
			if !ok {
				return nil, nil, fmt.Errorf("switch has no case %q", step)
			}
			v, set = c, func(x any) { cases[step] = x }
		case kind == "option" && step == "?":
			v, set = arr[1], func(x any) { arr[1] = x }
		case kind == "array" && step == "[]":
			opts, _ := arr[1].(map[string]any)
			v, set = opts["type"], func(x any) { opts["type"] = x }
		default:
			return nil, nil, fmt.Errorf("cannot step into %q of a %s", step, kind)
		}
	}
	return v, set, nil
}

// schemaTypes parses the closure of the roots and prints each named type.
func schemaTypes(raw map[string]any) (map[string]string, error) {
	out := map[string]string{}
	parsed := map[string]*pdNode{}
	var queue []string
	want := func(name string) {
		if _, ok := parsed[name]; !ok {
			parsed[name] = nil
			queue = append(queue, name)
		}
	}
	for _, r := range schemaRoots {
		if _, ok := raw[r]; ok {
			want(r)
		}
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		n, err := parseNode(raw[name], raw, want)
		if err != nil {
			return nil, fmt.Errorf("type %s: %w", name, err)
		}
		parsed[name] = n
	}
	for name, n := range parsed {
		if field, ok := schemaHoist[name]; ok {
			if err := hoist(name, field, n, parsed); err != nil {
				return nil, err
			}
		}
	}
	for name, n := range parsed {
		out[name] = printNode(n)
	}
	return out, nil
}

// hoist moves the cases of a container's switch field into named types.
func hoist(name, field string, n *pdNode, parsed map[string]*pdNode) error {
	if n.kind != "container" {
		return fmt.Errorf("type %s is a %s, not a container", name, n.kind)
	}
	for _, f := range n.fields {
		if f.name != field {
			continue
		}
		if f.t.kind != "switch" {
			return fmt.Errorf("%s.%s is a %s, not a switch", name, field, f.t.kind)
		}
		var enum map[int64]string
		for _, g := range n.fields {
			if g.name == f.t.disc && g.t.kind == "enum" {
				enum = g.t.enum
			}
			if g.name == f.t.disc && g.t.kind == "ref" && parsed[g.t.ref] != nil && parsed[g.t.ref].kind == "enum" {
				enum = parsed[g.t.ref].enum
			}
		}
		if enum == nil {
			return fmt.Errorf("%s.%s does not switch on an enum", name, field)
		}
		if schemaComplete[name] && f.t.def == nil {
			for key, value := range enum {
				if _, ok := f.t.cases[key]; !ok {
					return fmt.Errorf("%s.%s has no layout for %s (%d); minecraft-data must list it (\"void\" if it carries nothing)", name, field, value, key)
				}
			}
		}
		for key, c := range f.t.cases {
			if c.kind == "ref" || isPrim(c.kind) {
				continue // already short and shared
			}
			hoisted := name + "." + enum[key]
			if _, taken := parsed[hoisted]; taken {
				return fmt.Errorf("hoisting %s: the name is taken", hoisted)
			}
			parsed[hoisted] = c
			f.t.cases[key] = &pdNode{kind: "ref", ref: hoisted}
		}
		return nil
	}
	return fmt.Errorf("type %s has no field %s", name, field)
}

func isPrim(kind string) bool {
	for _, p := range schemaPrims {
		if p == kind {
			return true
		}
	}
	return false
}

// parseNode turns one raw protodef type into a pdNode; want is called for
// every named type it refers to.
func parseNode(v any, raw map[string]any, want func(string)) (*pdNode, error) {
	return parseIn(v, raw, want, nil)
}

func parseIn(v any, raw map[string]any, want func(string), siblings []pdField) (*pdNode, error) {
	switch t := v.(type) {
	case string:
		if p, ok := schemaPrims[t]; ok {
			return &pdNode{kind: p}, nil
		}
		def, ok := raw[t]
		if !ok {
			return nil, fmt.Errorf("unknown type %q", t)
		}
		if def == "native" {
			return nil, fmt.Errorf("native type %q is not supported by the interpreter", t)
		}
		want(t)
		return &pdNode{kind: "ref", ref: t}, nil
	case []any:
		if len(t) != 2 {
			return nil, fmt.Errorf("composite type of %d parts", len(t))
		}
		kind, _ := t[0].(string)
		switch kind {
		case "container":
			list, _ := t[1].([]any)
			n := &pdNode{kind: "container"}
			for _, f := range list {
				fm, _ := f.(map[string]any)
				name, _ := fm["name"].(string)
				if anon, _ := fm["anon"].(bool); anon {
					name = ""
				} else if name == "" {
					return nil, fmt.Errorf("container field without a name")
				}
				ft, err := parseIn(fm["type"], raw, want, n.fields)
				if err != nil {
					return nil, fmt.Errorf("field %s: %w", name, err)
				}
				n.fields = append(n.fields, pdField{name, ft})
			}
			return n, nil
		case "array":
			opts, _ := t[1].(map[string]any)
			n := &pdNode{kind: "array"}
			if ct, ok := opts["countType"]; ok {
				if ct != "varint" {
					return nil, fmt.Errorf("array count type %v", ct)
				}
			} else if c, ok := opts["count"].(string); ok {
				if _, err := sibling(siblings, c, raw); err != nil {
					return nil, fmt.Errorf("array count: %w", err)
				}
				n.count = c
			} else {
				return nil, fmt.Errorf("array without countType or count field")
			}
			elem, err := parseIn(opts["type"], raw, want, nil)
			if err != nil {
				return nil, err
			}
			n.elem = elem
			return n, nil
		case "option":
			elem, err := parseIn(t[1], raw, want, siblings)
			if err != nil {
				return nil, err
			}
			return &pdNode{kind: "option", elem: elem}, nil
		case "mapper":
			opts, _ := t[1].(map[string]any)
			if opts["type"] != "varint" {
				return nil, fmt.Errorf("mapper over %v", opts["type"])
			}
			m, _ := opts["mappings"].(map[string]any)
			n := &pdNode{kind: "enum", enum: map[int64]string{}}
			for k, name := range m {
				id, err := strconv.ParseInt(k, 0, 32)
				s, _ := name.(string)
				if err != nil || id < 0 || s == "" || strings.ContainsAny(s, " ()=@{}[]?:#") {
					return nil, fmt.Errorf("mapper entry %q: %q", k, name)
				}
				n.enum[id] = s
			}
			return n, nil
		case "switch":
			return parseSwitch(t[1], raw, want, siblings)
		case "registryEntryHolder":
			opts, _ := t[1].(map[string]any)
			other, _ := opts["otherwise"].(map[string]any)
			base, _ := opts["baseName"].(string)
			oname, _ := other["name"].(string)
			ot, err := parseIn(other["type"], raw, want, nil)
			if err != nil {
				return nil, err
			}
			return &pdNode{kind: "holder", base: base, other: oname, otherT: ot}, nil
		case "registryEntryHolderSet":
			opts, _ := t[1].(map[string]any)
			base, _ := opts["base"].(map[string]any)
			other, _ := opts["otherwise"].(map[string]any)
			bname, _ := base["name"].(string)
			oname, _ := other["name"].(string)
			bt, err := parseIn(base["type"], raw, want, nil)
			if err != nil {
				return nil, err
			}
			ot, err := parseIn(other["type"], raw, want, nil)
			if err != nil {
				return nil, err
			}
			return &pdNode{kind: "holderset", base: bname, baseT: bt, other: oname, otherT: ot}, nil
		case "pstring", "buffer":
			opts, _ := t[1].(map[string]any)
			if opts["countType"] == "varint" {
				if kind == "pstring" {
					return &pdNode{kind: "string"}, nil
				}
				return &pdNode{kind: "bytes"}, nil
			}
			if c, ok := opts["count"].(float64); ok && kind == "buffer" && c > 0 && c == float64(int(c)) {
				return &pdNode{kind: "fixed", fixed: int(c)}, nil
			}
			return nil, fmt.Errorf("%s with options %v", kind, opts)
		}
		return nil, fmt.Errorf("composite type %q is not supported by the interpreter", kind)
	}
	return nil, fmt.Errorf("type of unexpected JSON shape %T", v)
}

// sibling finds an earlier field of the same container by name.
func sibling(siblings []pdField, name string, raw map[string]any) (*pdNode, error) {
	for _, f := range siblings {
		if f.name == name {
			return f.t, nil
		}
	}
	return nil, fmt.Errorf("%q is not an earlier field of the same container (only sibling references are supported)", name)
}

func parseSwitch(opts any, raw map[string]any, want func(string), siblings []pdField) (*pdNode, error) {
	o, _ := opts.(map[string]any)
	disc, _ := o["compareTo"].(string)
	dt, err := sibling(siblings, disc, raw)
	if err != nil {
		return nil, fmt.Errorf("switch: %w", err)
	}
	// The discriminant's kind decides what the case keys mean.
	dkind := dt.kind
	var enum map[int64]string
	if dt.kind == "ref" {
		if n, ok := raw[dt.ref]; ok {
			if arr, ok := n.([]any); ok && len(arr) == 2 && arr[0] == "mapper" {
				parsed, err := parseIn(n, raw, func(string) {}, nil)
				if err != nil {
					return nil, err
				}
				dkind, enum = "enum", parsed.enum
			}
		}
	} else if dt.kind == "enum" {
		enum = dt.enum
	}
	n := &pdNode{kind: "switch", disc: disc, cases: map[int64]*pdNode{}}
	cases, _ := o["fields"].(map[string]any)
	for key, ct := range cases {
		var id int64
		switch dkind {
		case "enum":
			found := false
			for k, name := range enum {
				if name == key {
					id, found = k, true
				}
			}
			if !found {
				return nil, fmt.Errorf("switch on %s: case %q is not a value of its enum", disc, key)
			}
		case "bool":
			switch key {
			case "true":
				id = 1
			case "false":
				id = 0
			default:
				return nil, fmt.Errorf("switch on bool %s: case %q", disc, key)
			}
		case "varint", "i8", "u8", "i16", "i32":
			v, err := strconv.ParseInt(key, 10, 64)
			if err != nil {
				if key == "true" || key == "false" {
					continue // protodef compares with ===: a boolean key never matches a number
				}
				return nil, fmt.Errorf("switch on %s: case %q", disc, key)
			}
			id = v
		default:
			return nil, fmt.Errorf("switch on %s, a %s, is not supported", disc, dt.kind)
		}
		c, err := parseIn(ct, raw, want, nil)
		if err != nil {
			return nil, fmt.Errorf("case %s: %w", key, err)
		}
		n.cases[id] = c
	}
	if d, ok := o["default"]; ok {
		c, err := parseIn(d, raw, want, nil)
		if err != nil {
			return nil, fmt.Errorf("default: %w", err)
		}
		n.def = c
	}
	return n, nil
}

// printNode writes a node in the schema grammar (bot/protodef/parse.go).
func printNode(n *pdNode) string {
	var b strings.Builder
	printTo(&b, n)
	return b.String()
}

func printTo(b *strings.Builder, n *pdNode) {
	switch n.kind {
	case "ref":
		b.WriteString("@" + n.ref)
	case "container":
		b.WriteString("{")
		for i, f := range n.fields {
			if i > 0 {
				b.WriteString(" ")
			}
			name := f.name
			if name == "" {
				name = "_"
			}
			b.WriteString(name + ":")
			printTo(b, f.t)
		}
		b.WriteString("}")
	case "array":
		b.WriteString("[")
		if n.count != "" {
			b.WriteString("#" + n.count + " ")
		}
		printTo(b, n.elem)
		b.WriteString("]")
	case "option":
		b.WriteString("?")
		printTo(b, n.elem)
	case "enum":
		b.WriteString("enum(")
		for i, k := range sortedKeys(n.enum) {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(b, "%d=%s", k, n.enum[k])
		}
		b.WriteString(")")
	case "switch":
		b.WriteString("switch(" + n.disc)
		for _, k := range sortedKeys(n.cases) {
			fmt.Fprintf(b, " %d=", k)
			printTo(b, n.cases[k])
		}
		if n.def != nil {
			b.WriteString(" _=")
			printTo(b, n.def)
		}
		b.WriteString(")")
	case "holder":
		b.WriteString("holder(" + n.base + " " + n.other + " ")
		printTo(b, n.otherT)
		b.WriteString(")")
	case "holderset":
		b.WriteString("holderset(" + n.base + " ")
		printTo(b, n.baseT)
		b.WriteString(" " + n.other + " ")
		printTo(b, n.otherT)
		b.WriteString(")")
	case "fixed":
		fmt.Fprintf(b, "fixed(%d)", n.fixed)
	default:
		b.WriteString(n.kind)
	}
}

func sortedKeys[V any](m map[int64]V) []int64 {
	keys := make([]int64, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}

// printSchemas writes schema_gen.go: every distinct definition once, and
// per protocol the definition of each named type.
func printSchemas(versions []schemaVersion, version string) ([]byte, error) {
	type def struct{ name, text string }
	var defs []def
	index := map[def]int{}
	for _, v := range versions {
		for _, name := range sortedNames(v.types) {
			d := def{name, v.types[name]}
			if _, ok := index[d]; !ok {
				index[d] = len(defs)
				defs = append(defs, d)
			}
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by bot/mcdata/gen from minecraft-data %s (protocol.json types); DO NOT EDIT.\n\n", version)
	b.WriteString("package mcdata\n\n")
	b.WriteString("// Type corrections applied to minecraft-data (bot/mcdata/internal/gen/corrections.go):\n")
	for _, c := range TypeCorrections {
		fmt.Fprintf(&b, "//   - %s %v %s: minecraft-data %s, the game %s. %s.\n", c.ID, c.Protocols, c.Path, c.MD, c.Game, c.Why)
	}
	b.WriteString("\n// schemaCorrections are the type corrections, for tests that must know\n// where the schemas differ from minecraft-data.\n")
	b.WriteString("var schemaCorrections = []SchemaCorrection{\n")
	for _, c := range TypeCorrections {
		fmt.Fprintf(&b, "\t{ID: %q, Protocols: %#v, Path: %q, Why: %q},\n", c.ID, toInt32s(c.Protocols), c.Path, c.Why)
	}
	b.WriteString("}\n")
	b.WriteString("\n// schemaDefs holds every distinct type definition once, in the grammar of\n// bot/protodef/parse.go.\n")
	b.WriteString("var schemaDefs = [...]schemaDef{\n")
	for i, d := range defs {
		fmt.Fprintf(&b, "\t/* %d */ {%q, %q},\n", i, d.name, d.text)
	}
	b.WriteString("}\n\n")
	b.WriteString("// schemaVersions lists, per protocol, its named types (indexes into\n// schemaDefs), sorted by name.\n")
	b.WriteString("var schemaVersions = map[int32][]uint16{\n")
	var prev map[string]string
	for _, v := range versions {
		names := sortedNames(v.types)
		if prev != nil {
			var changed, added, removed []string
			for _, n := range names {
				if old, ok := prev[n]; !ok {
					added = append(added, n)
				} else if old != v.types[n] {
					changed = append(changed, n)
				}
			}
			for n := range prev {
				if _, ok := v.types[n]; !ok {
					removed = append(removed, n)
				}
			}
			sort.Strings(removed)
			fmt.Fprintf(&b, "\t// %d (%s): %d types; changed %s; added %s; removed %s.\n", v.protocol, v.data, len(names), listOrNone(changed), listOrNone(added), listOrNone(removed))
		} else {
			fmt.Fprintf(&b, "\t// %d (%s): %d types.\n", v.protocol, v.data, len(names))
		}
		fmt.Fprintf(&b, "\t%d: {", v.protocol)
		for i, n := range names {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%d", index[def{n, v.types[n]}])
		}
		b.WriteString("},\n")
		prev = v.types
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func sortedNames(m map[string]string) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func toInt32s(in []int) []int32 {
	out := make([]int32, len(in))
	for i, v := range in {
		out[i] = int32(v)
	}
	return out
}

// Package mdtest runs testdata/peers/itemvectors.js, which serializes item
// stacks and entity metadata with minecraft-protocol's own serializer, and
// compares what blockmate decodes with what minecraft-protocol parsed. It
// is for tests only.
package mdtest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// Vector is one value minecraft-protocol serialized.
type Vector struct {
	Kind     string `json:"kind"` // slot, untrusted, hashed, metadata
	Protocol int32  `json:"protocol"`
	Version  string `json:"version"`
	Name     string `json:"name"`
	Type     string `json:"type"` // the protodef type serialized
	Hex      string `json:"hex"`
	// Parsed is minecraft-protocol's parse of the bytes.
	Parsed any `json:"parsed"`
	// Touched lists the corrected paths the value passes through: its bytes
	// follow minecraft-data there, not the game.
	Touched []string `json:"touched"`
	// Error is set when minecraft-protocol could not write a value that
	// passes through a corrected path.
	Error string `json:"error"`
}

// Bytes is the serialized value.
func (v Vector) Bytes() []byte {
	b, err := hex.DecodeString(v.Hex)
	if err != nil {
		panic(err)
	}
	return b
}

func (v Vector) String() string { return fmt.Sprintf("%d %s %q", v.Protocol, v.Kind, v.Name) }

// Node returns the pinned Node from testdata/peers when installed, else
// node from PATH; it skips the test (fails in CI) when the peers are not
// installed.
func Node(t testing.TB) string {
	t.Helper()
	return peertest.NodeBinary(t)
}

// Load runs itemvectors.js for every protocol the schemas cover and
// returns the vectors of the given kinds.
func Load(t testing.TB, kinds ...string) []Vector {
	t.Helper()
	bin := Node(t)
	type corrected struct {
		Protocol int32  `json:"protocol"`
		Path     string `json:"path"`
	}
	var cs []corrected
	for _, c := range mcdata.SchemaCorrections() {
		for _, p := range c.Protocols {
			cs = append(cs, corrected{p, c.Path})
		}
	}
	config, err := json.Marshal(map[string]any{"protocols": mcdata.SchemaProtocols(), "corrected": cs, "seed": 1, "kinds": kinds})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "itemvectors.js", string(config))
	cmd.Dir = peertest.PeersDir(t)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("itemvectors.js failed: %v\n%s", err, stderr.String())
	}
	var out []Vector
	dec := json.NewDecoder(&stdout)
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("itemvectors.js wrote something that is not JSON: %v", err)
	}
	return out
}

// Compare reports the first difference between what blockmate decoded (a
// Plain() form) and minecraft-protocol's parse, as a path and a sentence,
// or "" when they agree. NBT in prismarine-nbt's typed form, Buffers as
// JSON and json.Numbers are understood.
func Compare(got, want any) string { return compare("$", got, want) }

var nbtTags = map[string]bool{
	"end": true, "byte": true, "short": true, "int": true, "long": true, "float": true, "double": true,
	"byteArray": true, "string": true, "list": true, "compound": true, "intArray": true, "longArray": true,
}

// isNBT reports whether a JSON object is a prismarine-nbt tag.
func isNBT(m map[string]any) bool {
	t, ok := m["type"].(string)
	if !ok || !nbtTags[t] {
		return false
	}
	for k := range m {
		if k != "type" && k != "name" && k != "value" {
			return false
		}
	}
	return true
}

// nbtPlain turns a prismarine-nbt tag into wire.Reader.NBT's form, with
// numbers as float64 (compare is numeric).
func nbtPlain(tag map[string]any) any {
	v := tag["value"]
	switch tag["type"] {
	case "compound":
		out := map[string]any{}
		m, _ := v.(map[string]any)
		for k, x := range m {
			xm, _ := x.(map[string]any)
			out[k] = nbtPlain(xm)
		}
		return out
	case "list":
		m, _ := v.(map[string]any)
		items, _ := m["value"].([]any)
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = nbtPlain(map[string]any{"type": m["type"], "value": it})
		}
		return out
	case "long":
		arr, _ := v.([]any)
		if len(arr) == 2 {
			hi, _ := arr[0].(json.Number).Int64()
			lo, _ := arr[1].(json.Number).Int64()
			return json.Number(fmt.Sprint(hi<<32 | int64(uint32(lo))))
		}
	}
	return v
}

func number(x any) (float64, bool) {
	switch n := x.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int64:
		return float64(n), true
	case int32:
		return float64(n), true
	case int16:
		return float64(n), true
	case int8:
		return float64(n), true
	case int:
		return float64(n), true
	}
	return 0, false
}

func compare(path string, got, want any) string {
	if wm, ok := want.(map[string]any); ok {
		if isNBT(wm) {
			want = nbtPlain(wm)
		} else if wm["type"] == "Buffer" {
			data, _ := wm["data"].([]any)
			b := make([]byte, len(data))
			for i, d := range data {
				n, _ := number(d)
				b[i] = byte(n)
			}
			want = b
		}
	}
	if gf, ok := number(got); ok {
		wf, ok := number(want)
		if !ok {
			return fmt.Sprintf("%s: blockmate read the number %v, minecraft-protocol %v", path, got, short(want))
		}
		if gf != wf && !(math.IsNaN(gf) && math.IsNaN(wf)) {
			return fmt.Sprintf("%s: blockmate read %v, minecraft-protocol %v", path, gf, wf)
		}
		return ""
	}
	switch g := got.(type) {
	case nil:
		if want != nil {
			return fmt.Sprintf("%s: blockmate read nothing, minecraft-protocol %v", path, short(want))
		}
	case bool, string:
		if g != want {
			return fmt.Sprintf("%s: blockmate read %q, minecraft-protocol %v", path, fmt.Sprint(g), short(want))
		}
	case []byte:
		w, ok := want.([]byte)
		if !ok || !bytes.Equal(g, w) {
			return fmt.Sprintf("%s: blockmate read bytes %x, minecraft-protocol %v", path, g, short(want))
		}
	case []int32, []int64:
		return compare(path, toAnys(g), want)
	case []any:
		w, ok := want.([]any)
		if !ok || len(w) != len(g) {
			return fmt.Sprintf("%s: blockmate read a list of %d, minecraft-protocol %v", path, len(g), short(want))
		}
		for i := range g {
			if d := compare(fmt.Sprintf("%s[%d]", path, i), g[i], w[i]); d != "" {
				return d
			}
		}
	case map[string]any:
		w, ok := want.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: blockmate read an object, minecraft-protocol %v", path, short(want))
		}
		keys := map[string]bool{}
		for k := range g {
			keys[k] = true
		}
		for k := range w {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			gv, gok := g[k]
			wv, wok := w[k]
			if !gok || !wok {
				return fmt.Sprintf("%s.%s: present for blockmate %v, for minecraft-protocol %v", path, k, gok, wok)
			}
			if d := compare(path+"."+k, gv, wv); d != "" {
				return d
			}
		}
	default:
		return fmt.Sprintf("%s: blockmate read a %T", path, got)
	}
	return ""
}

func toAnys(x any) []any {
	switch v := x.(type) {
	case []int32:
		out := make([]any, len(v))
		for i, n := range v {
			out[i] = n
		}
		return out
	case []int64:
		out := make([]any, len(v))
		for i, n := range v {
			out[i] = n
		}
		return out
	}
	return nil
}

func short(x any) string {
	b, _ := json.Marshal(x)
	s := string(b)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return strings.TrimSpace(s)
}

// Parsed is what minecraft-protocol made of some bytes.
type Parsed struct {
	OK    bool   `json:"ok"`
	Size  int    `json:"size"`
	Value any    `json:"parsed"`
	Error string `json:"error"`
}

// ParseRequest asks minecraft-protocol to parse bytes as a type.
type ParseRequest struct {
	Protocol int32  `json:"protocol"`
	Type     string `json:"type"`
	Hex      string `json:"hex"`
}

// Parse has minecraft-protocol parse each request's bytes.
func Parse(t testing.TB, reqs []ParseRequest) []Parsed {
	t.Helper()
	bin := Node(t)
	config, err := json.Marshal(map[string]any{"parse": reqs})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "itemvectors.js", string(config))
	cmd.Dir = peertest.PeersDir(t)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("itemvectors.js failed: %v\n%s", err, stderr.String())
	}
	var out []Parsed
	dec := json.NewDecoder(&stdout)
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil || len(out) != len(reqs) {
		t.Fatalf("itemvectors.js answered %d parses (%v), want %d", len(out), err, len(reqs))
	}
	return out
}

package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the JSON type an argument takes. The names are JSON Schema's.
type Kind string

const (
	KindString  Kind = "string"
	KindInteger Kind = "integer"
	KindNumber  Kind = "number"
	KindBoolean Kind = "boolean"
	// KindObject and KindArray carry structured values (a position, a
	// recipe, a list of blocks) that the tool decodes itself with
	// Args.Decode; MaxLength bounds their JSON text in bytes.
	KindObject Kind = "object"
	KindArray  Kind = "array"
)

// Arg declares one argument of a tool. The same declaration validates calls,
// renders the JSON Schema that mc_list_tools and `blockmate tools` show, and
// feeds the console's completion, so an argument is described exactly once.
type Arg struct {
	Name        string
	Kind        Kind
	Description string
	Required    bool
	// Min and Max bound numbers (inclusive); nil means unbounded.
	Min, Max *float64
	// MinLength and MaxLength bound strings in characters; 0 means unbounded.
	MinLength, MaxLength int
	// Enum lists the only strings accepted, when set.
	Enum []string
	// Default is filled in when the argument is absent; nil means none.
	Default any
	// Recovery, when set, ends every refusal of this argument: the sentence
	// that tells the caller how to get a right value (for a port: run
	// mc_discover_lan, or ask the player).
	Recovery string
}

// Schema is the argument list of a tool: a JSON object with exactly these
// properties. Order is kept so help text and schemas read in the order the
// tool's author chose.
type Schema []Arg

// Str declares a text argument.
func Str(name, description string) Arg {
	return Arg{Name: name, Kind: KindString, Description: description}
}

// Int declares a whole-number argument bounded to [min, max].
func Int(name, description string, min, max float64) Arg {
	return Arg{Name: name, Kind: KindInteger, Description: description, Min: &min, Max: &max}
}

// Num declares a number argument bounded to [min, max].
func Num(name, description string, min, max float64) Arg {
	return Arg{Name: name, Kind: KindNumber, Description: description, Min: &min, Max: &max}
}

// Bool declares a true/false argument.
func Bool(name, description string) Arg {
	return Arg{Name: name, Kind: KindBoolean, Description: description}
}

// Obj declares an object argument of at most maxBytes bytes of JSON.
func Obj(name, description string, maxBytes int) Arg {
	return Arg{Name: name, Kind: KindObject, Description: description, MaxLength: maxBytes}
}

// Arr declares an array argument of at most maxBytes bytes of JSON.
func Arr(name, description string, maxBytes int) Arg {
	return Arg{Name: name, Kind: KindArray, Description: description, MaxLength: maxBytes}
}

// Req marks the argument as required.
func (a Arg) Req() Arg { a.Required = true; return a }

// Def sets the value used when the argument is absent.
func (a Arg) Def(v any) Arg { a.Default = v; return a }

// OneOf restricts a text argument to the given values.
func (a Arg) OneOf(values ...string) Arg { a.Enum = values; return a }

// Recover sets the sentence that ends every refusal of the argument.
func (a Arg) Recover(sentence string) Arg { a.Recovery = sentence; return a }

// Len bounds a text argument's length in characters.
func (a Arg) Len(min, max int) Arg { a.MinLength, a.MaxLength = min, max; return a }

// Names lists the argument names in declaration order.
func (s Schema) Names() []string {
	names := make([]string, len(s))
	for i, a := range s {
		names[i] = a.Name
	}
	return names
}

// Lookup finds an argument by name.
func (s Schema) Lookup(name string) (Arg, bool) {
	for _, a := range s {
		if a.Name == name {
			return a, true
		}
	}
	return Arg{}, false
}

// MarshalJSON renders the schema as a JSON Schema object with properties in
// declaration order and additionalProperties false.
func (s Schema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	var required []string
	for i, a := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(quote(a.Name))
		b.WriteByte(':')
		prop, err := a.MarshalJSON()
		if err != nil {
			return nil, err
		}
		b.Write(prop)
		if a.Required {
			required = append(required, a.Name)
		}
	}
	b.WriteString(`}`)
	if len(required) > 0 {
		req, _ := Marshal(required)
		b.WriteString(`,"required":`)
		b.Write(req)
	}
	b.WriteString(`,"additionalProperties":false}`)
	return b.Bytes(), nil
}

// MarshalJSON renders one property of the JSON Schema.
func (a Arg) MarshalJSON() ([]byte, error) {
	type prop struct {
		Type        Kind     `json:"type"`
		Description string   `json:"description,omitempty"`
		Minimum     *float64 `json:"minimum,omitempty"`
		Maximum     *float64 `json:"maximum,omitempty"`
		MinLength   int      `json:"minLength,omitempty"`
		MaxLength   int      `json:"maxLength,omitempty"`
		Enum        []string `json:"enum,omitempty"`
		Default     any      `json:"default,omitempty"`
	}
	minLen, maxLen := a.MinLength, a.MaxLength
	if a.Kind == KindObject || a.Kind == KindArray {
		minLen, maxLen = 0, 0 // a byte bound on JSON text, not JSON Schema's string length
	}
	return Marshal(prop{a.Kind, a.Description, a.Min, a.Max, minLen, maxLen, a.Enum, a.Default})
}

// Expect says in words what the argument accepts, for error messages and help.
func (a Arg) Expect() string {
	switch a.Kind {
	case KindInteger, KindNumber:
		noun := "a number"
		if a.Kind == KindInteger {
			noun = "a whole number"
		}
		switch {
		case a.Min != nil && a.Max != nil:
			return fmt.Sprintf("%s from %s to %s", noun, fmtNum(*a.Min), fmtNum(*a.Max))
		case a.Min != nil:
			return fmt.Sprintf("%s of at least %s", noun, fmtNum(*a.Min))
		case a.Max != nil:
			return fmt.Sprintf("%s of at most %s", noun, fmtNum(*a.Max))
		}
		return noun
	case KindBoolean:
		return "true or false"
	case KindObject, KindArray:
		noun := "a JSON object"
		if a.Kind == KindArray {
			noun = "a JSON array"
		}
		if a.MaxLength > 0 {
			return fmt.Sprintf("%s of at most %d bytes", noun, a.MaxLength)
		}
		return noun
	case KindString:
		if len(a.Enum) > 0 {
			quoted := make([]string, len(a.Enum))
			for i, v := range a.Enum {
				quoted[i] = strconv.Quote(v)
			}
			return "one of " + strings.Join(quoted, ", ")
		}
		switch {
		case a.MinLength > 0 && a.MaxLength > 0:
			return fmt.Sprintf("text of %d to %d characters", a.MinLength, a.MaxLength)
		case a.MaxLength > 0:
			return fmt.Sprintf("text of at most %d characters", a.MaxLength)
		case a.MinLength > 0:
			return "non-empty text"
		}
		return "text"
	}
	return string(a.Kind)
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// ArgError is a call's argument that does not fit the tool's schema. Its
// message names the field, what was expected and what came, so the caller
// can fix the call without reading documentation.
type ArgError struct {
	Tool  string
	Field string
	Msg   string
}

func (e *ArgError) Error() string { return e.Msg }

// Validate checks raw arguments against the schema and returns them with
// defaults filled in. The first problem found is returned as an *ArgError.
func (s Schema) Validate(tool string, raw map[string]json.RawMessage) (Args, error) {
	for name := range raw {
		if _, ok := s.Lookup(name); !ok {
			msg := fmt.Sprintf("%s has no argument %q.", tool, name)
			if near := closest(name, s.Names(), 1); len(near) > 0 {
				msg += fmt.Sprintf(" Did you mean %q?", near[0])
			}
			if len(s) == 0 {
				msg += ` It takes no arguments: send "args":{}.`
			} else {
				msg += " It takes " + strings.Join(s.Names(), ", ") + "."
			}
			return nil, &ArgError{tool, name, msg}
		}
	}
	out := make(Args, len(s))
	for _, a := range s {
		v, ok := raw[a.Name]
		if !ok || isNull(v) {
			if a.Required {
				return nil, &ArgError{tool, a.Name, fmt.Sprintf("%s is required: %s", a.Name, a.Expect()) + describe(a) + recovery(a)}
			}
			if a.Default != nil {
				d, err := Marshal(a.Default)
				if err != nil {
					return nil, fmt.Errorf("default of %s.%s: %w", tool, a.Name, err)
				}
				out[a.Name] = d
			}
			continue
		}
		if err := a.check(v); err != "" {
			return nil, &ArgError{tool, a.Name, fmt.Sprintf("%s must be %s; got %s", a.Name, a.Expect(), preview(v)) + recovery(a)}
		}
		out[a.Name] = v
	}
	return out, nil
}

func describe(a Arg) string {
	if a.Description == "" {
		return ""
	}
	return " (" + strings.TrimSuffix(a.Description, ".") + ")"
}

func recovery(a Arg) string {
	if a.Recovery == "" {
		return ""
	}
	return " — " + a.Recovery
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// check returns a non-empty string when v does not fit the argument.
func (a Arg) check(v json.RawMessage) string {
	switch a.Kind {
	case KindInteger, KindNumber:
		var f float64
		if len(v) == 0 || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) || json.Unmarshal(v, &f) != nil {
			return "type"
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return "range"
		}
		if a.Kind == KindInteger && f != math.Trunc(f) {
			return "whole"
		}
		if (a.Min != nil && f < *a.Min) || (a.Max != nil && f > *a.Max) {
			return "range"
		}
	case KindBoolean:
		if s := string(v); s != "true" && s != "false" {
			return "type"
		}
	case KindObject, KindArray:
		open := byte('{')
		if a.Kind == KindArray {
			open = '['
		}
		t := bytes.TrimSpace(v)
		if len(t) == 0 || t[0] != open || !json.Valid(t) {
			return "type"
		}
		if a.MaxLength > 0 && len(t) > a.MaxLength {
			return "size"
		}
	case KindString:
		var s string
		if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
			return "type"
		}
		n := utf8.RuneCountInString(s)
		if (a.MinLength > 0 && n < a.MinLength) || (a.MaxLength > 0 && n > a.MaxLength) {
			return "length"
		}
		if len(a.Enum) > 0 {
			for _, e := range a.Enum {
				if e == s {
					return ""
				}
			}
			return "enum"
		}
	}
	return ""
}

// preview renders a value for an error message, short enough that a
// truncated log line still shows it.
func preview(v json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		b.Reset()
		b.Write(v)
	}
	s := b.String()
	if utf8.RuneCountInString(s) > 60 {
		r := []rune(s)
		s = string(r[:57]) + "..."
	}
	return s
}

// Args are a call's validated arguments, keyed by name, with defaults filled.
type Args map[string]json.RawMessage

// Has reports whether the argument was given (or has a default).
func (a Args) Has(name string) bool { _, ok := a[name]; return ok }

// Int returns an integer argument, or 0 when absent. Validation has already
// checked the type, so decoding cannot fail for a declared integer.
func (a Args) Int(name string) int {
	var f float64
	_ = json.Unmarshal(a[name], &f)
	return int(f)
}

// Float returns a number argument, or 0 when absent.
func (a Args) Float(name string) float64 {
	var f float64
	_ = json.Unmarshal(a[name], &f)
	return f
}

// String returns a text argument, or "" when absent.
func (a Args) String(name string) string {
	var s string
	_ = json.Unmarshal(a[name], &s)
	return s
}

// Decode reads an object or array argument into v; the error is a
// sentence naming the argument.
func (a Args) Decode(name string, v any) error {
	raw, ok := a[name]
	if !ok {
		return fmt.Errorf("%s is missing", name)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s does not have the expected shape (%v)", name, err)
	}
	return nil
}

// Bool returns a boolean argument, or false when absent.
func (a Args) Bool(name string) bool {
	return string(a[name]) == "true"
}

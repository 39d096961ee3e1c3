package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/blockmate/blockmate/protocol"
)

// exampleLines are short-form calls worth showing a person, best first.
// Only those the catalog in use accepts are ever shown (see examples), so
// help and hints never name a tool that does not exist.
var exampleLines = []string{
	"say hi there",
	"status",
	"join 51234",
	"join 192.168.1.20:51234",
	"whisper Eduard see you at spawn",
	"wait 500",
	"read_chat 5",
	"ping_server 127.0.0.1:51234",
	"respawn",
	"stop",
}

// examples are up to n of exampleLines that parse against c.
func examples(c *protocol.Catalog, n int) []string {
	var out []string
	for _, ex := range exampleLines {
		if len(out) == n {
			break
		}
		if _, err := parseLine(c, ex); err == nil {
			out = append(out, ex)
		}
	}
	return out
}

// longForm writes a request as its full tool name and name=value
// arguments in the schema's order.
func longForm(c *protocol.Catalog, req protocol.Request) string {
	parts := []string{req.Tool}
	if t, ok := c.Lookup(req.Tool); ok {
		for _, a := range t.Args {
			if v, ok := req.Args[a.Name]; ok {
				parts = append(parts, a.Name+"="+valueText(v))
			}
		}
	}
	return strings.Join(parts, " ")
}

// shortFormHelp documents what the input line accepts, with examples
// taken from the catalog in use; the full help shows it.
func shortFormHelp(c *protocol.Catalog) string {
	var b strings.Builder
	b.WriteString(`The input line takes a tool call in one of two forms.

JSON, as the sidecar reads it; "id" may be left out:
`)
	if _, ok := c.Lookup("mc_say"); ok {
		b.WriteString(`  {"tool":"mc_say","args":{"message":"hi"}}` + "\n")
	} else {
		b.WriteString(`  {"tool":"mc_list_tools"}` + "\n")
	}
	b.WriteString(`
The short form: a tool name (the mc_ may be left out), then arguments as
name=value, or bare values filling the arguments in order; the last text
argument takes the rest of the line:
`)
	for _, ex := range examples(c, len(exampleLines)) {
		req, _ := parseLine(c, ex)
		fmt.Fprintf(&b, "  %-32s %s\n", ex, longForm(c, req))
	}
	b.WriteString(`Values are read by the argument's type; quote text with spaces as "…".
Tab completes tool and argument names; ↑/↓ recall earlier lines.`)
	return b.String()
}

// hostHasPort reports whether a host argument is itself host:port, which
// mc_join also takes.
func hostHasPort(raw json.RawMessage) bool {
	var host string
	if json.Unmarshal(raw, &host) != nil {
		return false
	}
	_, _, err := CheckAddress(host)
	return err == nil
}

// joinNeedsAddress is the console's own sentence for a join typed without
// a port: it speaks to the person at the keyboard, where the bot's error
// speaks to a program.
const joinNeedsAddress = "Type the port Minecraft shows in chat after Open to LAN after join, such as join 51234 (or host:port for another computer, such as join 192.168.1.20:51234), or choose the world in the Worlds pane and press enter."

// emptyLine answers Enter on a line with nothing to send.
const emptyLine = "type a tool call first, such as status; F1 (or ? on an empty line) shows the forms it can take"

// parseLine turns the input line into a request (its ID left empty when
// the line did not give one) or an error sentence. It checks the tool and
// its arguments with the catalog's own validation, so what is refused here
// is exactly what the dispatcher would refuse.
func parseLine(c *protocol.Catalog, line string) (protocol.Request, error) {
	line = strings.TrimSpace(line)
	// A leading / or : is how chat clients and the console's own older key
	// began a command; no call begins with either, so it is let go.
	if len(line) > 1 && (line[0] == '/' || line[0] == ':') {
		line = strings.TrimSpace(line[1:])
	}
	if line == "" {
		return protocol.Request{}, errors.New(emptyLine)
	}
	var req protocol.Request
	var err error
	if line[0] == '{' {
		req, err = parseJSONLine(line)
	} else {
		req, err = parseShortForm(c, line)
	}
	if err != nil {
		return protocol.Request{}, err
	}
	t, ok := c.Lookup(req.Tool)
	if !ok {
		msg := fmt.Sprintf("unknown tool %q", truncate(clean(req.Tool), 40))
		if near := c.Closest(req.Tool, 3); len(near) > 0 {
			msg += "; did you mean " + strings.Join(near, " or ") + "? Tab completes tool names."
		} else {
			msg += "; type its first letters and press Tab to see the tools, or F1 for help."
		}
		return protocol.Request{}, errors.New(msg)
	}
	if t.Name == "mc_join" {
		if _, hasPort := t.Args.Lookup("port"); hasPort {
			if _, given := req.Args["port"]; !given && !hostHasPort(req.Args["host"]) {
				return protocol.Request{}, errors.New(joinNeedsAddress)
			}
		}
	}
	if _, err := t.Args.Validate(t.Name, req.Args); err != nil {
		return protocol.Request{}, err
	}
	return req, nil
}

// parseJSONLine reads a pasted request, adding no id: the caller assigns one.
func parseJSONLine(line string) (protocol.Request, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &top); err != nil {
		// DecodeRequest words JSON errors the way the sidecar does.
		_, derr := protocol.DecodeRequest([]byte(line))
		if derr != nil {
			return protocol.Request{}, derr
		}
		return protocol.Request{}, err
	}
	placeholder := false
	if _, ok := top["id"]; !ok {
		top["id"] = json.RawMessage(`"_"`)
		placeholder = true
	}
	fixed, err := protocol.Marshal(top)
	if err != nil {
		return protocol.Request{}, err
	}
	req, err := protocol.DecodeRequest(fixed)
	if err != nil {
		return protocol.Request{}, err
	}
	if placeholder {
		req.ID = nil
	}
	return req, nil
}

// toolName resolves a typed name: the full name, or without its mc_ prefix.
func toolName(c *protocol.Catalog, name string) string {
	if _, ok := c.Lookup(name); ok {
		return name
	}
	if _, ok := c.Lookup("mc_" + name); ok {
		return "mc_" + name
	}
	return name
}

func parseShortForm(c *protocol.Catalog, line string) (protocol.Request, error) {
	words, err := splitWords(line)
	if err != nil {
		return protocol.Request{}, err
	}
	req := protocol.Request{Tool: toolName(c, words[0].text), Args: map[string]json.RawMessage{}}
	t, ok := c.Lookup(req.Tool)
	if !ok {
		return req, nil // parseLine words the unknown tool
	}
	schema := t.Args
	var positional []word
	for _, w := range words[1:] {
		if w.named {
			name, value, _ := strings.Cut(w.text, "=")
			a, known := schema.Lookup(name)
			if !known {
				// Validate words it with the argument list and a suggestion.
				req.Args[name] = json.RawMessage(strconv.Quote(value))
				continue
			}
			req.Args[name] = encodeValue(a, value, w.quoted)
			continue
		}
		positional = append(positional, w)
	}
	// A host:port word fills both when the tool takes both.
	if _, hasHost := schema.Lookup("host"); hasHost {
		if _, hasPort := schema.Lookup("port"); hasPort {
			for i, w := range positional {
				if h, p, err := net.SplitHostPort(w.text); err == nil && !w.quoted {
					if _, err := strconv.Atoi(p); err == nil {
						if h != "" {
							req.Args["host"] = json.RawMessage(strconv.Quote(h))
						}
						req.Args["port"] = json.RawMessage(p)
						positional = append(positional[:i:i], positional[i+1:]...)
						break
					}
				}
			}
		}
	}
	// A bare whole number fills the port when the tool takes a host and a
	// port: `join 42905` is the number the game prints in chat, and mc_join
	// takes a port alone (the host defaults to this computer).
	if _, hasHost := schema.Lookup("host"); hasHost {
		if _, hasPort := schema.Lookup("port"); hasPort {
			if _, given := req.Args["port"]; !given {
				for i, w := range positional {
					if n, err := strconv.Atoi(w.text); err == nil && !w.quoted && isDigits(w.text) {
						req.Args["port"] = json.RawMessage(strconv.Itoa(n))
						positional = append(positional[:i:i], positional[i+1:]...)
						break
					}
				}
			}
		}
	}
	// Bare values fill the arguments not yet given, in order.
	var free []protocol.Arg
	for _, a := range schema {
		if _, given := req.Args[a.Name]; !given {
			free = append(free, a)
		}
	}
	// As many bare values as required arguments left, each of its kind,
	// fill those alone: "goto 100 -40" is x and z, the optional y between
	// them left out (the ground there), while "goto 100 64 -40" is x y z.
	if req := requiredOnly(free); len(req) < len(free) && len(req) == len(positional) && fitKinds(req, positional) {
		free = req
	}
	for i := 0; i < len(positional); i++ {
		if i >= len(free) {
			return req, fmt.Errorf("%s takes %d argument(s) (%s); %q is one too many", t.Name, len(schema), strings.Join(schema.Names(), ", "), positional[i].text)
		}
		a := free[i]
		if i == len(free)-1 && a.Kind == protocol.KindString && len(positional) > len(free) {
			rest := make([]string, 0, len(positional)-i)
			for _, w := range positional[i:] {
				rest = append(rest, w.text)
			}
			req.Args[a.Name] = json.RawMessage(strconv.Quote(strings.Join(rest, " ")))
			break
		}
		req.Args[a.Name] = encodeValue(a, positional[i].text, positional[i].quoted)
	}
	if len(req.Args) == 0 {
		req.Args = nil
	}
	return req, nil
}

// requiredOnly is the required arguments of args, in order.
func requiredOnly(args []protocol.Arg) []protocol.Arg {
	var out []protocol.Arg
	for _, a := range args {
		if a.Required {
			out = append(out, a)
		}
	}
	return out
}

// fitKinds says whether each word reads as its argument's kind (a number
// for a number), so that "collect coal" is not read as a count of "coal".
func fitKinds(args []protocol.Arg, words []word) bool {
	for i, a := range args {
		if a.Kind != protocol.KindString && string(encodeValue(a, words[i].text, words[i].quoted)) == strconv.Quote(words[i].text) {
			return false
		}
	}
	return true
}

// encodeValue turns typed text into JSON by the argument's kind. Text that
// does not fit the kind is passed on as a string so that validation can say
// what was expected and what came.
func encodeValue(a protocol.Arg, text string, quoted bool) json.RawMessage {
	if a.Kind != protocol.KindString && !quoted {
		switch a.Kind {
		case protocol.KindBoolean:
			if text == "true" || text == "false" {
				return json.RawMessage(text)
			}
		case protocol.KindInteger, protocol.KindNumber:
			if _, err := strconv.ParseFloat(text, 64); err == nil && json.Valid([]byte(text)) {
				return json.RawMessage(text)
			}
		}
	}
	if !quoted && (strings.HasPrefix(text, "{") || strings.HasPrefix(text, "[")) && json.Valid([]byte(text)) {
		var b bytes.Buffer
		_ = json.Compact(&b, []byte(text))
		return b.Bytes()
	}
	return json.RawMessage(strconv.Quote(text))
}

// isDigits reports whether s is a whole number written with digits only.
func isDigits(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

type word struct {
	text   string
	quoted bool // some of it was in quotes: never a number or a host:port
	named  bool // an = outside quotes makes it name=value
}

// splitWords splits on spaces, keeping "double" or 'single' quoted runs
// together. name="a b" is one word.
func splitWords(line string) ([]word, error) {
	var out []word
	var cur strings.Builder
	var w word
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
				continue
			}
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, w.quoted, inWord = r, true, true
		case r == ' ' || r == '\t':
			if inWord {
				w.text = cur.String()
				out = append(out, w)
				cur.Reset()
				w, inWord = word{}, false
			}
		case r == '=' && !w.named && !w.quoted && cur.Len() > 0:
			w.named = true
			cur.WriteRune(r)
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("a %c quote is not closed", quote)
	}
	if inWord {
		w.text = cur.String()
		out = append(out, w)
	}
	if len(out) == 0 {
		return nil, errors.New(emptyLine)
	}
	return out, nil
}

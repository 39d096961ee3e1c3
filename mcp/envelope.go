package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// decodeMessage decodes one JSON-RPC message as jsonrpc.DecodeMessage does:
// a request when "method" is there, else a response, which must have an
// id. Keys match in exact case, as the SDK's decoder matches them ("Method"
// is not "method"), and a key given twice counts by its last value, as in
// every Go JSON decoder.
//
// It reads the envelope's top-level members in place, after json.Valid has
// vouched for the whole text, so that a short message costs one validation
// pass and one copy (which params and result then share), not a decode
// into a map and a copy per member. The members' values stay raw: the
// server decodes params itself.
func decodeMessage(raw []byte) (jsonrpc.Message, *lineError) {
	if !utf8.Valid(raw) {
		// JSON is UTF-8; the SDK would quietly turn the bad bytes into
		// U+FFFD, which may change a name or an argument unseen.
		return nil, &lineError{code: jsonrpc.CodeParseError, msg: "the line is not valid UTF-8; send each message as one line of UTF-8 JSON"}
	}
	if !json.Valid(raw) {
		var v any
		err := json.Unmarshal(raw, &v)
		return nil, &lineError{code: jsonrpc.CodeParseError, msg: fmt.Sprintf("the line is not valid JSON (%v); send each message as one line of JSON", err)}
	}
	raw = bytes.Clone(raw)
	var (
		rawID, rawVersion, rawMethod, params, result, rawErr []byte
		hasID, hasMethod                                     bool
	)
	isObject := eachMember(raw, func(key, value []byte) {
		switch memberName(key) {
		case "jsonrpc":
			rawVersion = value
		case "id":
			rawID, hasID = value, true
		case "method":
			rawMethod, hasMethod = value, true
		case "params":
			params = value
		case "result":
			result = value
		case "error":
			rawErr = value
		}
	})
	if !isObject {
		return nil, &lineError{code: jsonrpc.CodeInvalidRequest, msg: fmt.Sprintf("a JSON-RPC message is an object; got %s", preview(bytes.TrimSpace(raw)))}
	}
	var id jsonrpc.ID
	if hasID {
		var ok bool
		if id, ok = decodeID(rawID); !ok {
			return nil, &lineError{code: jsonrpc.CodeInvalidRequest, msg: fmt.Sprintf(`"id" must be a string, a number or null; got %s`, preview(rawID))}
		}
	}
	if version, ok := decodeString(rawVersion); !ok || version != "2.0" {
		return nil, &lineError{id: id, code: jsonrpc.CodeInvalidRequest, msg: fmt.Sprintf(`"jsonrpc" must be "2.0"; got %s`, preview(rawVersion))}
	}
	if hasMethod {
		method, ok := decodeString(rawMethod)
		if !ok {
			return nil, &lineError{id: id, code: jsonrpc.CodeInvalidRequest, msg: fmt.Sprintf(`"method" must be a string; got %s`, preview(rawMethod))}
		}
		return &jsonrpc.Request{ID: id, Method: method, Params: params}, nil
	}
	if !id.IsValid() {
		return nil, &lineError{code: jsonrpc.CodeInvalidRequest, msg: `the message has neither "method" (a request) nor "id" (a response)`}
	}
	resp := &jsonrpc.Response{ID: id, Result: result}
	if rawErr != nil && string(rawErr) != "null" {
		werr, err := decodeWireError(rawErr)
		if err != nil {
			return nil, &lineError{id: id, code: jsonrpc.CodeInvalidRequest, msg: fmt.Sprintf(`"error" must be an object with "code" and "message"; got %s`, preview(rawErr))}
		}
		resp.Error = werr
	}
	return resp, nil
}

// decodeID reads an id as the SDK does: a string, a number (taken as an
// integer) or null (no id); anything else is no id at all.
func decodeID(raw []byte) (jsonrpc.ID, bool) {
	switch {
	case string(raw) == "null":
		return jsonrpc.ID{}, true
	case raw[0] == '"':
		s, ok := decodeString(raw)
		if !ok {
			return jsonrpc.ID{}, false
		}
		id, err := jsonrpc.MakeID(s)
		return id, err == nil
	case raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'):
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return jsonrpc.ID{}, false
		}
		id, err := jsonrpc.MakeID(f)
		return id, err == nil
	}
	return jsonrpc.ID{}, false
}

// decodeString reads a JSON string; ok is false for anything else.
func decodeString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// memberName is an object key without its quotes and escapes.
func memberName(key []byte) string {
	s, _ := decodeString(key)
	return s
}

// decodeWireError decodes a response's error object, keys in exact case.
func decodeWireError(raw []byte) (*jsonrpc.Error, error) {
	werr := &jsonrpc.Error{}
	var err error
	isObject := eachMember(raw, func(key, value []byte) {
		switch memberName(key) {
		case "code":
			if e := json.Unmarshal(value, &werr.Code); e != nil {
				err = e
			}
		case "message":
			if e := json.Unmarshal(value, &werr.Message); e != nil {
				err = e
			}
		case "data":
			werr.Data = value
		}
	})
	if !isObject {
		return nil, fmt.Errorf("not an object")
	}
	return werr, err
}

// eachMember calls fn with the raw key and value of each member of the
// JSON object in data, in order, and reports whether data is an object.
// data must be valid JSON (json.Valid): the scan relies on it.
func eachMember(data []byte, fn func(key, value []byte)) bool {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if data[i] == '}' {
		return true
	}
	for {
		keyEnd := skipString(data, i)
		key := data[i:keyEnd]
		i = skipSpace(data, keyEnd)
		i = skipSpace(data, i+1) // past ':'
		valueEnd := skipValue(data, i)
		fn(key, data[i:valueEnd])
		i = skipSpace(data, valueEnd)
		if data[i] == '}' {
			return true
		}
		i = skipSpace(data, i+1) // past ','
	}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string that starts at i.
func skipString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipValue returns the index just past the value that starts at i.
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				i = skipString(data, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	// A number, true, false or null: up to the next delimiter.
	for i < len(data) {
		switch data[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
		i++
	}
	return i
}

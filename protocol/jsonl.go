package protocol

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// DefaultMaxLine is the longest request line accepted: far above any real
// call, small enough that a runaway writer cannot grow our memory.
const DefaultMaxLine = 1 << 20

// The range --max-line accepts. Below a kilobyte an ordinary request with a
// sentence of chat would not fit; above 64 MiB one line held whole would
// cost more memory than any real request could need.
const (
	MinMaxLine = 1 << 10
	MaxMaxLine = 64 << 20
)

// LineTooLongError reports a line that was skipped for its size. The line
// was discarded as it streamed past, never held whole.
type LineTooLongError struct {
	Line  int
	Bytes int64
	Limit int
	// Head is the line's first bytes (up to headSize), kept so the caller
	// can still find the request's id and answer it.
	Head []byte
}

const headSize = 1024

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("line %d is %d bytes, over the %d-byte limit; it was skipped", e.Line, e.Bytes, e.Limit)
}

// ErrPartialLine is returned with the last bytes of a stream that ended
// without a newline, so the caller can decide whether a cut-off line counts.
var ErrPartialLine = errors.New("the input ended in the middle of a line")

// LineReader reads newline-delimited lines of bounded length.
type LineReader struct {
	r     *bufio.Reader
	max   int
	buf   []byte
	lines int
}

// NewLineReader reads lines of at most max bytes (not counting the newline)
// from r; max <= 0 means DefaultMaxLine.
func NewLineReader(r io.Reader, max int) *LineReader {
	if max <= 0 {
		max = DefaultMaxLine
	}
	return &LineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Next returns the next line without its newline (and without a trailing
// \r). The slice is valid until the next call. A line over the limit yields
// a *LineTooLongError after it has been skipped; reading may go on. At the
// end of input Next returns io.EOF, or the unterminated last bytes together
// with ErrPartialLine.
func (lr *LineReader) Next() ([]byte, error) {
	lr.buf = lr.buf[:0]
	var skipped int64
	var head []byte
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if skipped == 0 && len(lr.buf)+len(chunk) <= lr.max+1 {
			lr.buf = append(lr.buf, chunk...)
		} else {
			// Over the limit: keep the head, count, drop what we held,
			// keep discarding.
			if skipped == 0 {
				head = append(head, lr.buf[:min(len(lr.buf), headSize)]...)
				if len(head) < headSize {
					head = append(head, chunk[:min(len(chunk), headSize-len(head))]...)
				}
			}
			skipped += int64(len(lr.buf)) + int64(len(chunk))
			lr.buf = lr.buf[:0]
		}
		switch {
		case err == nil:
			lr.lines++
			if skipped > 0 {
				return nil, &LineTooLongError{Line: lr.lines, Bytes: skipped - 1, Limit: lr.max, Head: head}
			}
			line := bytes.TrimSuffix(lr.buf[:len(lr.buf)-1], []byte{'\r'})
			if len(line) > lr.max {
				return nil, &LineTooLongError{Line: lr.lines, Bytes: int64(len(line)), Limit: lr.max, Head: line[:min(len(line), headSize)]}
			}
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if skipped > 0 {
				lr.lines++
				return nil, &LineTooLongError{Line: lr.lines, Bytes: skipped, Limit: lr.max, Head: head}
			}
			if len(lr.buf) > 0 {
				lr.lines++
				if len(lr.buf) > lr.max {
					return nil, &LineTooLongError{Line: lr.lines, Bytes: int64(len(lr.buf)), Limit: lr.max, Head: lr.buf[:min(len(lr.buf), headSize)]}
				}
				return lr.buf, ErrPartialLine
			}
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}

// Line reports how many lines have been read so far, for log messages.
func (lr *LineReader) Line() int { return lr.lines }

// RequestError says why a line is not a request. Such lines get no
// response, since there may be no id to answer; the text goes to the log.
type RequestError struct {
	Msg string
	// ID is set when the line had a usable id: the problem can then be
	// answered with an error response instead of only a log line.
	ID json.RawMessage
}

func (e *RequestError) Error() string { return e.Msg }

// DecodeRequest parses one line into a request.
//
// The id may be a non-empty string or a number and is echoed back exactly as
// sent; null, empty, or any other type is refused, as there would be nothing
// to correlate the response with. args may be absent or null (no arguments)
// or an object. Invalid UTF-8 is invalid JSON.
func DecodeRequest(line []byte) (Request, error) {
	if !utf8.Valid(line) {
		return Request{}, &RequestError{Msg: "the line is not valid UTF-8"}
	}
	// Some editors and Windows tools start a stream with a byte-order mark.
	line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
	var top map[string]json.RawMessage
	if err := json.Unmarshal(line, &top); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &typ):
			return Request{}, &RequestError{Msg: fmt.Sprintf("a request must be a JSON object; got %s", typ.Value)}
		case errors.As(err, &syn):
			return Request{}, &RequestError{Msg: fmt.Sprintf("not valid JSON (%v at byte %d)", syn, syn.Offset)}
		}
		return Request{}, &RequestError{Msg: fmt.Sprintf("not valid JSON (%v)", err)}
	}
	var req Request
	id, ok := top["id"]
	switch {
	case !ok:
		return req, &RequestError{Msg: `missing "id": every request needs an id (a string such as "c1") to match its response`}
	case len(id) > 0 && id[0] == '"':
		var s string
		_ = json.Unmarshal(id, &s)
		if s == "" {
			return req, &RequestError{Msg: `"id" is empty: use a non-empty string such as "c1"`}
		}
		if len(s) > 256 {
			return req, &RequestError{Msg: `"id" is longer than 256 characters`}
		}
	case len(id) > 0 && (id[0] == '-' || (id[0] >= '0' && id[0] <= '9')):
		if len(id) > 64 {
			return req, &RequestError{Msg: `"id" is a number longer than 64 digits`}
		}
	default:
		return req, &RequestError{Msg: fmt.Sprintf(`"id" must be a non-empty string or a number; got %s`, preview(id))}
	}
	req.ID = id
	tool, ok := top["tool"]
	if !ok {
		return req, &RequestError{Msg: fmt.Sprintf(`request %s has no "tool": name the tool to call, e.g. "mc_status"`, idString(id))}
	}
	// From here on the id is usable, so problems are answered.
	if json.Unmarshal(tool, &req.Tool) != nil || req.Tool == "" {
		return req, &RequestError{fmt.Sprintf(`"tool" must be a non-empty string naming a tool, e.g. "mc_status"; got %s. Call mc_list_tools to see every tool.`, preview(tool)), id}
	}
	if args, ok := top["args"]; ok && !isNull(args) {
		if len(args) == 0 || args[0] != '{' {
			return req, &RequestError{fmt.Sprintf(`"args" must be an object such as {"port":25565}; got %s`, preview(args)), id}
		}
		if err := json.Unmarshal(args, &req.Args); err != nil {
			return req, &RequestError{fmt.Sprintf(`"args" is not a valid object (%v)`, err), id}
		}
	}
	return req, nil
}

// LineWriter writes whole JSON lines from many goroutines; one mutex keeps
// every line whole. After Close (or WriteLast), writes are dropped, so
// nothing follows the last response.
type LineWriter struct {
	mu sync.Mutex
	w  *bufio.Writer
	// closed is atomic so Close never waits behind a write that is stuck on
	// a parent that stopped reading: shutdown stays bounded.
	closed atomic.Bool
	err    error
	broken chan struct{} // closed on the first write error
}

// NewLineWriter writes lines to w.
func NewLineWriter(w io.Writer) *LineWriter {
	return &LineWriter{w: bufio.NewWriterSize(w, 16<<10), broken: make(chan struct{})}
}

// Broken is closed when a write fails: the reader of the lines is gone.
func (lw *LineWriter) Broken() <-chan struct{} { return lw.broken }

// Write marshals v and writes it as one line, flushed at once so a reader
// sees it without delay. It reports false if the writer is closed or broken.
func (lw *LineWriter) Write(v json.Marshaler) bool { return lw.write(v, false) }

// WriteLast writes v as the final line: no write after it goes out, not
// even one already waiting for the lock.
func (lw *LineWriter) WriteLast(v json.Marshaler) bool { return lw.write(v, true) }

func (lw *LineWriter) write(v json.Marshaler, last bool) bool {
	b, err := v.MarshalJSON()
	if err != nil {
		return false
	}
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.closed.Load() || lw.err != nil {
		return false
	}
	if last {
		lw.closed.Store(true)
	}
	lw.w.Write(b)
	lw.w.WriteByte('\n')
	if lw.err = lw.w.Flush(); lw.err != nil {
		close(lw.broken)
		return false
	}
	return true
}

// Close stops all further writes without waiting for one in progress.
func (lw *LineWriter) Close() { lw.closed.Store(true) }

// IDFromHead finds the id of a request from the first bytes of its line,
// for a line too long to read whole. It returns nil when the id does not
// come before the cut or is not a usable id.
func IDFromHead(head []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(head))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		if key == "id" {
			var id json.RawMessage
			if dec.Decode(&id) != nil {
				return nil
			}
			if r, err := DecodeRequest([]byte(`{"id":` + string(id) + `,"tool":"t"}`)); err == nil {
				return r.ID
			}
			return nil
		}
		// Skip the value; a value cut off by the head ends the search.
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return nil
		}
	}
	return nil
}

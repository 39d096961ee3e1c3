package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/blockmate/blockmate/protocol"
)

// stdioTransport is blockmate's own sdk.Transport for MCP over stdin and
// stdout: newline-delimited JSON-RPC, as the specification's stdio
// transport says (one message per line, no embedded newlines).
//
// It exists for speed. The SDK's IOTransport decodes each line with its
// internal JSON package three times (once trying it as a batch, twice in
// jsonrpc2.DecodeMessage), and that package allocates a fresh 32 KiB read
// buffer on every decode, however short the message: about 100 KB of
// garbage per tool call before the server has looked at it, which the
// garbage collector then pays for. This transport reads lines into one
// reused buffer (protocol.LineReader, as the sidecar does), reads the
// JSON-RPC envelope in place after one validation pass (decodeMessage,
// keys in exact case as the SDK matches them), and writes each line
// through one reused buffer, copying a result the SDK has just encoded
// rather than encoding it again (appendMessage).
//
// It also differs from the SDK's in what a bad line costs: the SDK's
// transport ends the session on a line it cannot decode; this one answers
// it with a JSON-RPC error that says what was wrong, and reads on.
type stdioTransport struct {
	in  io.Reader
	out io.Writer
	log *slog.Logger
	// maxLine bounds one incoming line; 0 means sdk.DefaultMaxLineLength.
	maxLine int
}

// Connect starts reading the input and returns the connection.
func (t *stdioTransport) Connect(context.Context) (sdk.Connection, error) {
	maxLine := t.maxLine
	if maxLine <= 0 {
		maxLine = sdk.DefaultMaxLineLength
	}
	log := t.log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &stdioConn{in: t.in, out: t.out, log: log, incoming: make(chan inbound), closed: make(chan struct{})}
	go c.readLoop(protocol.NewLineReader(t.in, maxLine))
	return c, nil
}

// inbound is what the read loop hands to Read: the messages of one line
// (several for a batch), or the error that ended the input.
type inbound struct {
	msgs []jsonrpc.Message
	err  error
}

// stdioConn is one stdio session's connection.
type stdioConn struct {
	in  io.Reader
	out io.Writer
	log *slog.Logger

	incoming chan inbound
	// queue holds the rest of a batch; only Read touches it, and the SDK
	// never calls Read concurrently with itself.
	queue []jsonrpc.Message

	closeOnce sync.Once
	closed    chan struct{}

	writeMu sync.Mutex
	wbuf    []byte

	mu sync.Mutex
	// initID is the id of the client's initialize request, and version the
	// protocol version the server answered it with: batches are allowed
	// only before 2025-06-18, as in the SDK's transport.
	initID  jsonrpc.ID
	version string
	// batches tracks the requests of incoming batches by id, so that their
	// responses go back together as one array.
	batches map[jsonrpc.ID]*pendingBatch
}

type pendingBatch struct {
	unresolved map[jsonrpc.ID]int
	responses  []*jsonrpc.Response
}

// noBatchesFrom is the first protocol version without JSON-RPC batches.
const noBatchesFrom = "2025-06-18"

func (c *stdioConn) SessionID() string { return "" }

// Read returns the next message, or io.EOF once the input has ended or the
// connection is closed.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(c.queue) > 0 {
		next := c.queue[0]
		c.queue = c.queue[1:]
		return next, nil
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case in := <-c.incoming:
		if in.err != nil {
			return nil, in.err
		}
		c.queue = in.msgs[1:]
		return in.msgs[0], nil
	}
}

// readLoop reads lines until the input ends, turning each into messages
// for Read or, when it is not one, into an error answer.
func (c *stdioConn) readLoop(lr *protocol.LineReader) {
	var err error
	defer func() {
		select {
		case c.incoming <- inbound{err: err}:
		case <-c.closed:
		}
	}()
	for {
		var line []byte
		line, err = lr.Next()
		var tooLong *protocol.LineTooLongError
		switch {
		case errors.As(err, &tooLong):
			c.refuse(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, fmt.Sprintf("line %d is %d bytes, over the %d-byte limit for one message; it was skipped", tooLong.Line, tooLong.Bytes, tooLong.Limit))
			continue
		case errors.Is(err, protocol.ErrPartialLine):
			// The client closed its end after a last message without a
			// newline: the message still counts, as it does for the SDK.
			err = io.EOF
		case err != nil:
			return
		}
		msgs, ok := c.decodeLine(line)
		if ok {
			select {
			case c.incoming <- inbound{msgs: msgs}:
			case <-c.closed:
				err = io.EOF
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// lineError is a line that is no message, with the JSON-RPC error code and
// the sentence that answer it.
type lineError struct {
	id   jsonrpc.ID
	code int64
	msg  string
}

// decodeLine turns one line into its messages; a line that is none is
// answered with an error and yields nothing.
func (c *stdioConn) decodeLine(line []byte) ([]jsonrpc.Message, bool) {
	line = bytes.TrimSpace(bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")))
	if len(line) == 0 {
		return nil, false
	}
	if line[0] != '[' {
		msg, lerr := decodeMessage(line)
		if lerr != nil {
			c.refuse(lerr.id, lerr.code, lerr.msg)
			return nil, false
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "initialize" && req.IsCall() {
			c.mu.Lock()
			c.initID = req.ID
			c.mu.Unlock()
		}
		return []jsonrpc.Message{msg}, true
	}
	msgs, lerr := c.decodeBatch(line)
	if lerr != nil {
		c.refuse(lerr.id, lerr.code, lerr.msg)
		return nil, false
	}
	return msgs, true
}

// decodeBatch decodes a JSON-RPC batch (protocol versions before
// 2025-06-18) and notes its requests, so their responses go back as one
// array.
func (c *stdioConn) decodeBatch(line []byte) ([]jsonrpc.Message, *lineError) {
	var raws []json.RawMessage
	if err := json.Unmarshal(line, &raws); err != nil {
		return nil, &lineError{code: jsonrpc.CodeParseError, msg: fmt.Sprintf("the line is not valid JSON (%v); send each message as one line of JSON", err)}
	}
	if len(raws) == 0 {
		return nil, &lineError{code: jsonrpc.CodeInvalidRequest, msg: "the batch is empty; send at least one message in it"}
	}
	c.mu.Lock()
	version := c.version
	c.mu.Unlock()
	if version >= noBatchesFrom {
		return nil, &lineError{code: jsonrpc.CodeInvalidRequest, msg: fmt.Sprintf("JSON-RPC batches are not part of protocol %s (they ended with %s); send one message per line", version, noBatchesFrom)}
	}
	msgs := make([]jsonrpc.Message, 0, len(raws))
	batch := &pendingBatch{unresolved: map[jsonrpc.ID]int{}}
	for i, raw := range raws {
		msg, lerr := decodeMessage(raw)
		if lerr != nil {
			lerr.msg = fmt.Sprintf("message %d of the batch: %s; the batch was not run", i+1, lerr.msg)
			return nil, lerr
		}
		if req, ok := msg.(*jsonrpc.Request); ok {
			if usesPerRequestVersion(req) {
				return nil, &lineError{code: jsonrpc.CodeInvalidRequest, msg: fmt.Sprintf("message %d of the batch declares protocol 2026-07-28 or later, which has no JSON-RPC batches; send one message per line", i+1)}
			}
			if req.IsCall() {
				if _, dup := batch.unresolved[req.ID]; dup {
					return nil, &lineError{code: jsonrpc.CodeInvalidRequest, msg: fmt.Sprintf("the batch uses id %v twice; give every request its own id", req.ID.Raw())}
				}
				batch.unresolved[req.ID] = len(batch.responses)
				batch.responses = append(batch.responses, nil)
			}
		}
		msgs = append(msgs, msg)
	}
	if len(batch.responses) > 0 {
		c.mu.Lock()
		defer c.mu.Unlock()
		for id := range batch.unresolved {
			if _, busy := c.batches[id]; busy {
				return nil, &lineError{code: jsonrpc.CodeInvalidRequest, msg: fmt.Sprintf("id %v is already in use by a request that has not been answered; give every request its own id", id.Raw())}
			}
		}
		if c.batches == nil {
			c.batches = map[jsonrpc.ID]*pendingBatch{}
		}
		for id := range batch.unresolved {
			c.batches[id] = batch
		}
	}
	return msgs, nil
}

// usesPerRequestVersion reports whether req declares its protocol version in
// _meta, as 2026-07-28 requests do.
func usesPerRequestVersion(req *jsonrpc.Request) bool {
	var params map[string]json.RawMessage
	if json.Unmarshal(req.Params, &params) != nil {
		return false
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(params["_meta"], &meta) != nil {
		return false
	}
	_, ok := meta[sdk.MetaKeyProtocolVersion]
	return ok
}

func preview(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	if len(raw) > 40 {
		return string(raw[:40]) + "…"
	}
	return string(raw)
}

// refuse answers a line that is no message: with its id when it had one,
// else with a null id, as JSON-RPC says.
func (c *stdioConn) refuse(id jsonrpc.ID, code int64, msg string) {
	c.log.Warn("an MCP client sent a line that is not a message; it was answered with an error", "err", msg)
	idJSON := []byte("null")
	switch v := id.Raw().(type) {
	case int64:
		idJSON = strconv.AppendInt(nil, v, 10)
	case string:
		idJSON, _ = json.Marshal(v)
	}
	text, _ := json.Marshal(msg)
	line := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`+"\n", idJSON, code, text)
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := c.out.Write(line); err != nil {
		c.log.Debug("an error answer could not be written", "err", err)
	}
}

// Write writes one message as one line. A response to a request of a
// batch waits for the batch's other responses, and they go out as one
// array line.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok {
		if batch, inBatch := c.noteResponse(resp); inBatch {
			if batch == nil {
				return nil
			}
			raws := make([]json.RawMessage, len(batch))
			for i, r := range batch {
				data, err := jsonrpc.EncodeMessage(r)
				if err != nil {
					return fmt.Errorf("encoding a batch response: %w", err)
				}
				raws[i] = data
			}
			data, err := json.Marshal(raws)
			if err != nil {
				return fmt.Errorf("encoding a batch: %w", err)
			}
			c.writeMu.Lock()
			defer c.writeMu.Unlock()
			return c.writeLine(append(data, '\n'))
		}
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	line, ok := appendMessage(c.wbuf[:0], msg)
	if !ok {
		data, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			return fmt.Errorf("encoding an MCP message: %w", err)
		}
		line = append(append(c.wbuf[:0], data...), '\n')
	}
	c.wbuf = line
	return c.writeLine(line)
}

// writeLine writes one whole line; the caller holds writeMu.
func (c *stdioConn) writeLine(line []byte) error {
	_, err := c.out.Write(line)
	// A buffer grown by one huge message is not kept for the small ones.
	if cap(c.wbuf) > 1<<20 {
		c.wbuf = nil
	}
	return err
}

// appendMessage appends msg and a newline to buf in the wire form
// jsonrpc.EncodeMessage gives it, for the messages that make up nearly all
// traffic: results, and requests and notifications with their params. Their
// result or params were encoded by the SDK a moment ago, compact, so they
// are copied as they are rather than encoded and checked a second time.
// Anything else (an error answer, a payload that is not compact JSON) is
// left to EncodeMessage: ok is false.
func appendMessage(buf []byte, msg jsonrpc.Message) (line []byte, ok bool) {
	buf = append(buf, `{"jsonrpc":"2.0"`...)
	switch m := msg.(type) {
	case *jsonrpc.Response:
		if m.Error != nil || !compactJSON(m.Result) {
			return buf, false
		}
		if buf, ok = appendID(buf, m.ID); !ok {
			return buf, false
		}
		buf = append(append(buf, `,"result":`...), m.Result...)
	case *jsonrpc.Request:
		if m.ID.IsValid() {
			if buf, ok = appendID(buf, m.ID); !ok {
				return buf, false
			}
		}
		if !plainString(m.Method) || (len(m.Params) > 0 && !compactJSON(m.Params)) {
			return buf, false
		}
		buf = append(append(append(buf, `,"method":"`...), m.Method...), '"')
		if len(m.Params) > 0 {
			buf = append(append(buf, `,"params":`...), m.Params...)
		}
	default:
		return buf, false
	}
	return append(buf, '}', '\n'), true
}

func appendID(buf []byte, id jsonrpc.ID) ([]byte, bool) {
	switch v := id.Raw().(type) {
	case int64:
		return strconv.AppendInt(append(buf, `,"id":`...), v, 10), true
	case string:
		if plainString(v) {
			return append(append(append(buf, `,"id":"`...), v...), '"'), true
		}
	}
	return buf, false
}

// plainString reports whether s can stand between JSON quotes as it is:
// printable ASCII without a quote or backslash (an escaped form would be
// the same string, but this keeps the fast path obviously right).
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 || b > 0x7e || b == '"' || b == '\\' {
			return false
		}
	}
	return true
}

// compactJSON reports whether raw is valid JSON on one line, as the SDK's
// encoder writes every payload; anything else takes the long way.
func compactJSON(raw []byte) bool {
	return len(raw) > 0 && bytes.IndexByte(raw, '\n') < 0 && bytes.IndexByte(raw, '\r') < 0 && json.Valid(raw)
}

// noteResponse learns the negotiated protocol version from the answer to
// initialize, and files a response that belongs to a batch: inBatch says
// whether it does, and batch holds all its responses once the last one is
// in.
func (c *stdioConn) noteResponse(resp *jsonrpc.Response) (batch []*jsonrpc.Response, inBatch bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.initID.IsValid() && resp.ID == c.initID && resp.Error == nil {
		var result struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if json.Unmarshal(resp.Result, &result) == nil {
			c.version = result.ProtocolVersion
		}
		c.initID = jsonrpc.ID{}
	}
	b, ok := c.batches[resp.ID]
	if !ok {
		return nil, false
	}
	delete(c.batches, resp.ID)
	b.responses[b.unresolved[resp.ID]] = resp
	delete(b.unresolved, resp.ID)
	if len(b.unresolved) > 0 {
		return nil, true
	}
	return b.responses, true
}

// Close ends the connection: Read returns io.EOF, and the input is closed
// when it can be (which unblocks a read waiting on it).
func (c *stdioConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		if closer, ok := c.in.(io.Closer); ok {
			err = closer.Close()
		}
	})
	return err
}

package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpHandler serves Path: the checks every request passes, then
// blockmate's own Streamable HTTP handling for what clients send all the
// time, and the SDK's handlers for the rest (see Server.HTTPHandler).
type httpHandler struct {
	s    *Server
	opts HTTPOptions
	want [32]byte

	// stateful and stateless are the SDK's handlers, for what
	// blockmate's own handling leaves to them.
	stateful, stateless *sdk.StreamableHTTPHandler
	// versions are the protocol versions the SDK speaks.
	versions map[string]bool
	// paramHeaderTools are the tools whose schemas ask for Mcp-Param-*
	// headers (none of blockmate's today): their calls are checked by the
	// SDK's handler.
	paramHeaderTools map[string]bool

	sharedOnce sync.Once
	shared     *httpConn
	sharedSS   *sdk.ServerSession
	sharedErr  error

	mu       sync.Mutex
	sessions map[string]*httpSession
	closed   bool
}

// maxBody bounds a request's body, as the SDK's handler does.
const maxBody = sdk.DefaultMaxRequestBodyBytes

const (
	sessionIDHeader       = "Mcp-Session-Id"
	protocolVersionHeader = "Mcp-Protocol-Version"
	lastEventIDHeader     = "Last-Event-ID"
	// legacyDefaultVersion is the version of a request without a version
	// header, as the specification says a server must assume.
	legacyDefaultVersion = "2025-03-26"
	// batchesEndWith is the first version without JSON-RPC batches.
	batchesEndWith = noBatchesFrom
)

var bodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" && !allowedOrigin(origin, r.Host, h.opts.AllowRemote) {
		http.Error(w, "Forbidden: blockmate's MCP endpoint does not answer web pages (Origin "+quoteShort(origin)+"); connect from an MCP client instead.", http.StatusForbidden)
		return
	}
	got, ok := bearer(r.Header.Get("Authorization"))
	gotSum := sha256.Sum256([]byte(got))
	if subtle.ConstantTimeCompare(gotSum[:], h.want[:]) != 1 || !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="blockmate"`)
		http.Error(w, "Unauthorized: send the header \"Authorization: Bearer TOKEN\" with the token blockmate printed when it started (or the one given with --token / BLOCKMATE_MCP_TOKEN).", http.StatusUnauthorized)
		return
	}
	// DNS rebinding: a request that reached a loopback listener under a
	// name that is not loopback came from a web page (the SDK's check).
	if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && local != nil && isLoopbackAddr(local.String()) && !isLoopbackAddr(r.Host) {
		http.Error(w, fmt.Sprintf("Forbidden: invalid Host header %q", r.Host), http.StatusForbidden)
		return
	}
	version := r.Header.Get(protocolVersionHeader)
	if version >= statelessFrom {
		if r.Method == http.MethodPost && h.versions[version] && h.serveSessionless(w, r, version) {
			return
		}
		h.stateless.ServeHTTP(w, r)
		return
	}
	if version != "" && !h.versions[version] {
		h.stateful.ServeHTTP(w, r) // 400: a version the SDK does not speak
		return
	}
	if id := r.Header.Get(sessionIDHeader); id != "" {
		if sess := h.session(id); sess != nil {
			h.serveSession(w, r, sess, version)
			return
		}
		if r.Method == http.MethodDelete {
			// A session the SDK's handler opened: the SDK waits for the
			// session's calls before it closes it, so stop them first.
			h.s.endSession(id)
		}
		h.stateful.ServeHTTP(w, r) // the SDK's session, or 404
		return
	}
	if r.Method == http.MethodPost && h.startSession(w, r, version) {
		return
	}
	h.stateful.ServeHTTP(w, r)
}

func isLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	return isLoopbackHost(host)
}

// postAcceptable checks a POST's Content-Type and Accept as the SDK's
// handler does, answering with its errors when they are wrong.
func postAcceptable(w http.ResponseWriter, r *http.Request) bool {
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			http.Error(w, "Content-Type must be 'application/json'", http.StatusUnsupportedMediaType)
			return false
		}
	}
	if jsonOK, streamOK := accepts(r.Header.Values("Accept")); !jsonOK || !streamOK {
		http.Error(w, "Accept must contain both 'application/json' and 'text/event-stream'", http.StatusBadRequest)
		return false
	}
	return true
}

// accepts reads Accept headers as the SDK does.
func accepts(values []string) (jsonOK, streamOK bool) {
	for _, value := range values {
		if value == "application/json, text/event-stream" {
			return true, true
		}
		for _, raw := range strings.Split(value, ",") {
			base, _, _ := strings.Cut(strings.TrimSpace(raw), ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK, streamOK
}

// readBody reads a POST's body into a pooled buffer (to be put back with
// bodyPool.Put), answering 413 or 400 itself when it cannot; ok is false
// then.
func readBody(w http.ResponseWriter, r *http.Request) (buf *bytes.Buffer, ok bool) {
	buf = bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	if r.ContentLength > 0 && r.ContentLength <= maxBody {
		buf.Grow(int(r.ContentLength))
	}
	_, err := buf.ReadFrom(io.LimitReader(r.Body, maxBody+1))
	switch {
	case err != nil:
		http.Error(w, "failed to read body", http.StatusBadRequest)
	case buf.Len() > maxBody:
		http.Error(w, fmt.Sprintf("request body exceeds %d bytes", maxBody), http.StatusRequestEntityTooLarge)
	default:
		return buf, true
	}
	putBody(buf)
	return nil, false
}

func putBody(buf *bytes.Buffer) {
	// A buffer grown by one huge body is not kept for the small ones.
	if buf.Cap() <= 1<<20 {
		bodyPool.Put(buf)
	}
}

// restoreBody gives the request back the body read from it, for the SDK's
// handler.
func restoreBody(r *http.Request, body []byte) {
	r.Body = io.NopCloser(bytes.NewReader(bytes.Clone(body)))
}

// decodeBody reads a POST's JSON-RPC message, or a batch of them.
func decodeBody(body []byte) (msgs []jsonrpc.Message, isBatch bool, err error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil, false, errors.New("the body is empty")
	}
	if body[0] != '[' {
		msg, lerr := decodeMessage(body)
		if lerr != nil {
			return nil, false, errors.New(lerr.msg)
		}
		return []jsonrpc.Message{msg}, false, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(body, &raws); err != nil {
		return nil, true, fmt.Errorf("the body is not valid JSON (%v)", err)
	}
	if len(raws) == 0 {
		return nil, true, errors.New("the batch is empty")
	}
	for i, raw := range raws {
		msg, lerr := decodeMessage(raw)
		if lerr != nil {
			return nil, true, fmt.Errorf("message %d of the batch: %s", i+1, lerr.msg)
		}
		msgs = append(msgs, msg)
	}
	return msgs, true, nil
}

// serveSessionless serves a 2026-07-28 tools/call or tools/list, the
// requests such a client sends all the time, on the one session-less
// connection; false (with the body given back) leaves the request to the
// SDK's session-less handler, which then answers it as it always has: any
// other method, a batch, a notification, headers that do not match the
// body (its 400s), a tool that wants Mcp-Param-* headers.
func (h *httpHandler) serveSessionless(w http.ResponseWriter, r *http.Request, version string) bool {
	if !postAcceptable(w, r) {
		return true
	}
	if len(r.Header.Values(lastEventIDHeader)) > 0 {
		return false
	}
	buf, ok := readBody(w, r)
	if !ok {
		return true
	}
	defer putBody(buf)
	body := buf.Bytes()
	req := h.plainSessionlessCall(r, body, version)
	if req == nil {
		restoreBody(r, body)
		return false
	}
	conn, err := h.sharedConn()
	if err != nil {
		h.s.log.Error("the MCP session-less connection could not start", "err", err)
		http.Error(w, "failed connection", http.StatusInternalServerError)
		return true
	}
	ex := &exchange{conn: conn, w: w, newProtocol: true, clientID: req.ID, remapped: true, pending: 1, done: make(chan struct{})}
	req.ID = conn.internalID()
	h.exchange(w, r, conn, ex, []jsonrpc.Message{req}, []jsonrpc.ID{req.ID})
	return true
}

// plainSessionlessCall is the body's request when it is one the
// session-less fast path serves exactly as the SDK's handler would: one
// tools/call or tools/list with an id, whose _meta declares the header's
// version, with Mcp-Method (and for a call Mcp-Name) matching the body;
// else nil.
func (h *httpHandler) plainSessionlessCall(r *http.Request, body []byte, version string) *jsonrpc.Request {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return nil
	}
	msg, lerr := decodeMessage(body)
	if lerr != nil {
		return nil
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.IsCall() || (req.Method != "tools/call" && req.Method != "tools/list") {
		return nil
	}
	if r.Header.Get("Mcp-Method") != req.Method {
		return nil
	}
	name, metaVersion := requestFacts(req.Params)
	if metaVersion != version {
		return nil
	}
	if req.Method == "tools/call" && (name == "" || r.Header.Get("Mcp-Name") != name || h.paramHeaderTools[name]) {
		return nil
	}
	return req
}

// requestFacts reads a request's params.name and the protocol version its
// _meta declares; params must be valid JSON (decodeMessage checked it).
func requestFacts(params []byte) (name, metaVersion string) {
	eachMember(params, func(key, value []byte) {
		switch memberName(key) {
		case "name":
			name, _ = decodeString(value)
		case "_meta":
			eachMember(value, func(key, value []byte) {
				if memberName(key) == sdk.MetaKeyProtocolVersion {
					metaVersion, _ = decodeString(value)
				}
			})
		}
	})
	return name, metaVersion
}

// sharedConn is the session-less connection, connected to the SDK's server
// on first use.
func (h *httpHandler) sharedConn() (*httpConn, error) {
	h.sharedOnce.Do(func() {
		h.mu.Lock()
		closed := h.closed
		h.mu.Unlock()
		if closed {
			h.sharedErr = errors.New("the MCP server is closing")
			return
		}
		conn := newHTTPConn("", true)
		ss, err := h.s.sdk.Connect(context.Background(), httpTransport{conn}, nil)
		if err != nil {
			h.sharedErr = err
			return
		}
		h.shared, h.sharedSS = conn, ss
	})
	return h.shared, h.sharedErr
}

// startSession serves a POST without a session: an initialize request
// opens a 2025-era session of blockmate's handler; anything else is left
// to the SDK's handler (false, with the body given back), which answers it
// as it always has.
func (h *httpHandler) startSession(w http.ResponseWriter, r *http.Request, version string) bool {
	if !postAcceptable(w, r) {
		return true
	}
	if len(r.Header.Values(lastEventIDHeader)) > 0 {
		return false
	}
	buf, ok := readBody(w, r)
	if !ok {
		return true
	}
	defer putBody(buf)
	body := bytes.TrimSpace(buf.Bytes())
	var req *jsonrpc.Request
	if len(body) > 0 && body[0] == '{' {
		if msg, lerr := decodeMessage(body); lerr == nil {
			req, _ = msg.(*jsonrpc.Request)
		}
	}
	if req == nil || req.Method != "initialize" || !req.IsCall() || len(req.Params) == 0 {
		restoreBody(r, body)
		return false
	}
	id := rand.Text()
	conn := newHTTPConn(id, false)
	ss, err := h.s.sdk.Connect(context.WithoutCancel(r.Context()), httpTransport{conn}, nil)
	if err != nil {
		h.s.log.Error("an MCP session could not start", "err", err)
		http.Error(w, "failed connection", http.StatusInternalServerError)
		return true
	}
	sess := &httpSession{conn: conn, ss: ss, timeout: h.opts.SessionTimeout}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		ss.Close()
		http.Error(w, "the MCP server is closing", http.StatusServiceUnavailable)
		return true
	}
	h.sessions[id] = sess
	h.mu.Unlock()
	sess.timer = newIdleTimer(sess.timeout, func() { h.closeSession(sess) })
	go func() {
		ss.Wait()
		sess.stopTimer()
		h.mu.Lock()
		delete(h.sessions, id)
		h.mu.Unlock()
	}()
	sess.startRequest()
	defer sess.endRequest()
	w.Header().Set(sessionIDHeader, id)
	h.exchange(w, r, conn, &exchange{conn: conn, w: w, pending: 1, done: make(chan struct{})}, []jsonrpc.Message{req}, []jsonrpc.ID{req.ID})
	if ss.InitializeParams() == nil {
		// The handshake failed: nobody can use the session.
		h.closeSession(sess)
	}
	return true
}

func (h *httpHandler) session(id string) *httpSession {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessions[id]
}

// closeSession ends a session: its calls are stopped first, since the SDK
// closes a session only once its handlers return, and a call may run for
// hours.
func (h *httpHandler) closeSession(sess *httpSession) {
	h.s.cancelSessionCalls(sess.ss)
	sess.ss.Close()
}

// closeAll ends every session of this handler, when the server closes.
func (h *httpHandler) closeAll() {
	h.mu.Lock()
	h.closed = true
	sessions := make([]*httpSession, 0, len(h.sessions))
	for _, sess := range h.sessions {
		sessions = append(sessions, sess)
	}
	h.mu.Unlock()
	for _, sess := range sessions {
		h.closeSession(sess)
	}
	h.sharedOnce.Do(func() { h.sharedErr = errors.New("the MCP server is closing") })
	if h.sharedSS != nil {
		h.s.cancelSessionCalls(h.sharedSS)
		h.sharedSS.Close()
	}
}

// serveSession serves a request within a 2025-era session of this handler.
func (h *httpHandler) serveSession(w http.ResponseWriter, r *http.Request, sess *httpSession, version string) {
	switch r.Method {
	case http.MethodPost:
		sess.startRequest()
		defer sess.endRequest()
		h.servePOST(w, r, sess, version)
	case http.MethodGet:
		h.serveGET(w, r, sess)
	case http.MethodDelete:
		h.closeSession(sess)
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	}
}

// servePOST serves the messages of a POST within a session: 202 for
// notifications and responses, the answers for requests.
func (h *httpHandler) servePOST(w http.ResponseWriter, r *http.Request, sess *httpSession, version string) {
	if !postAcceptable(w, r) {
		return
	}
	if len(r.Header.Values(lastEventIDHeader)) > 0 {
		http.Error(w, "can't send Last-Event-ID for POST request", http.StatusBadRequest)
		return
	}
	buf, ok := readBody(w, r)
	if !ok {
		return
	}
	msgs, isBatch, err := decodeBody(buf.Bytes())
	putBody(buf)
	if err != nil {
		http.Error(w, "malformed payload: "+err.Error(), http.StatusBadRequest)
		return
	}
	if version == "" {
		version = legacyDefaultVersion
	}
	if isBatch && version >= batchesEndWith {
		http.Error(w, fmt.Sprintf("JSON-RPC batching is not supported in %s and later (request version: %s)", batchesEndWith, version), http.StatusBadRequest)
		return
	}
	var ids []jsonrpc.ID
	for _, msg := range msgs {
		req, ok := msg.(*jsonrpc.Request)
		if !ok {
			continue
		}
		if req.Method != "server/discover" && bytes.Contains(req.Params, []byte(sdk.MetaKeyProtocolVersion)) && usesPerRequestVersion(req) {
			h.refuseNewProtocol(w, req)
			return
		}
		if req.IsCall() {
			ids = append(ids, req.ID)
		}
	}
	ex := &exchange{conn: sess.conn, w: w, pending: len(ids), batch: isBatch, done: make(chan struct{})}
	h.exchange(w, r, sess.conn, ex, msgs, ids)
}

// refuseNewProtocol answers a request declaring protocol 2026-07-28 in its
// _meta within a 2025-era session, as the SDK's stateful handler does.
func (h *httpHandler) refuseNewProtocol(w http.ResponseWriter, req *jsonrpc.Request) {
	var legacy []string
	for _, v := range sdk.SupportedProtocolVersions() {
		if v < statelessFrom {
			legacy = append(legacy, v)
		}
	}
	_, requested := requestFacts(req.Params)
	data, _ := json.Marshal(sdk.UnsupportedProtocolVersionData{Supported: legacy, Requested: requested})
	writeJSONRPCError(w, http.StatusBadRequest, req.ID, &jsonrpc.Error{
		Code:    sdk.CodeUnsupportedProtocolVersion,
		Message: fmt.Sprintf("protocol version %q is not supported by this server", requested),
		Data:    data,
	})
}

func writeJSONRPCError(w http.ResponseWriter, status int, id jsonrpc.ID, jerr *jsonrpc.Error) {
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: jerr})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if err == nil {
		w.Write(data)
	}
}

// exchange hands msgs to the session of conn and, when they include
// requests (ids), answers them on w through ex, waiting until they are
// answered, the client goes away, or the session closes. Without requests
// it answers 202 Accepted, as the specification says.
func (h *httpHandler) exchange(w http.ResponseWriter, r *http.Request, conn *httpConn, ex *exchange, msgs []jsonrpc.Message, ids []jsonrpc.ID) {
	extra := &sdk.RequestExtra{Header: r.Header}
	for _, msg := range msgs {
		if req, ok := msg.(*jsonrpc.Request); ok {
			req.Extra = extra
		}
	}
	if len(ids) == 0 {
		for _, msg := range msgs {
			if !conn.send(msg) {
				http.Error(w, "session is closing", http.StatusNotFound)
				return
			}
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if !conn.register(ex, ids) {
		writeJSONRPCError(w, http.StatusBadRequest, ids[0], &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "duplicate in-flight request ID"})
		return
	}
	h.s.exchanges.Store(extra, ex)
	defer h.s.exchanges.Delete(extra)
	defer conn.forget(ids, ex)
	defer ex.end()
	for _, msg := range msgs {
		if !conn.send(msg) {
			return
		}
	}
	select {
	case <-ex.done:
	case <-conn.closed:
	case <-r.Context().Done():
		if conn.sessionless {
			// In 2026-07-28 the POST is the whole call: a client that drops
			// it has cancelled it.
			for _, id := range ids {
				conn.send(cancelled(id))
			}
		}
	}
}

// cancelled is the notification that cancels the request with id.
func cancelled(id jsonrpc.ID) *jsonrpc.Request {
	raw := []byte(`{"requestId":`)
	switch v := id.Raw().(type) {
	case int64:
		raw = strconv.AppendInt(raw, v, 10)
	case string:
		raw = strconv.AppendQuote(raw, v)
	}
	return &jsonrpc.Request{Method: "notifications/cancelled", Params: append(raw, `,"reason":"the client dropped the HTTP request"}`...)}
}

// serveGET holds a session's event stream open: what belongs to no request
// (log messages, resource updates) goes out on it.
func (h *httpHandler) serveGET(w http.ResponseWriter, r *http.Request, sess *httpSession) {
	if _, streamOK := accepts(r.Header.Values("Accept")); !streamOK {
		http.Error(w, "Accept must contain 'text/event-stream' for GET requests", http.StatusBadRequest)
		return
	}
	if len(r.Header.Values(lastEventIDHeader)) > 0 {
		// blockmate keeps no events to replay.
		http.Error(w, "stream replay unsupported", http.StatusBadRequest)
		return
	}
	conn := sess.conn
	ex := &exchange{conn: conn, w: w, stream: true, done: make(chan struct{})}
	conn.mu.Lock()
	if conn.standalone != nil {
		conn.mu.Unlock()
		http.Error(w, "stream ID conflicts with ongoing stream", http.StatusConflict)
		return
	}
	// The headers go out now, with a comment as the first data: proxies
	// hold headers back until some data comes, and events may not come for
	// a long time (the SDK does the same).
	ex.mu.Lock()
	ex.startStream()
	io.WriteString(w, ": ok\n\n")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	ex.mu.Unlock()
	conn.standalone = ex
	conn.mu.Unlock()
	select {
	case <-r.Context().Done():
	case <-conn.closed:
	}
	conn.mu.Lock()
	if conn.standalone == ex {
		conn.standalone = nil
	}
	conn.mu.Unlock()
	ex.end()
}

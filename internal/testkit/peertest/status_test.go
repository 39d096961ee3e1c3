package peertest_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"net"
	"strconv"
	"testing"
	"time"
)

// status is the part of a status ping answer the tests check.
type status struct {
	Version struct {
		Name     string `json:"name"`
		Protocol int    `json:"protocol"`
	} `json:"version"`
	Description json.RawMessage `json:"description"`
}

// statusPing asks addr for its status, as a launcher's server list does.
func statusPing(t *testing.T, addr string) status {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		t.Fatalf("status ping %s: %v", addr, err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	host, portStr, _ := net.SplitHostPort(addr)
	port, _ := strconv.Atoi(portStr)

	var hs bytes.Buffer
	hs.Write(binary.AppendUvarint(nil, 0x00)) // handshake
	hs.Write(binary.AppendUvarint(nil, 767))
	hs.Write(binary.AppendUvarint(nil, uint64(len(host))))
	hs.WriteString(host)
	_ = binary.Write(&hs, binary.BigEndian, uint16(port))
	hs.Write(binary.AppendUvarint(nil, 1)) // next state: status
	writePacket(t, conn, hs.Bytes())
	writePacket(t, conn, []byte{0x00}) // status request

	r := bufio.NewReader(conn)
	n, err := binary.ReadUvarint(r)
	if err != nil || n > 1<<20 {
		t.Fatalf("status ping %s: reading length: %v (%d)", addr, err, n)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		t.Fatalf("status ping %s: %v", addr, err)
	}
	br := bytes.NewReader(body)
	if id, err := binary.ReadUvarint(br); err != nil || id != 0 {
		t.Fatalf("status ping %s: packet id %d, %v", addr, id, err)
	}
	sl, err := binary.ReadUvarint(br)
	if err != nil || sl > uint64(br.Len()) {
		t.Fatalf("status ping %s: bad string length %d, %v", addr, sl, err)
	}
	js := make([]byte, sl)
	_, _ = io.ReadFull(br, js)
	var st status
	if err := json.Unmarshal(js, &st); err != nil {
		t.Fatalf("status ping %s: %v in %s", addr, err, js)
	}
	return st
}

func writePacket(t *testing.T, w io.Writer, body []byte) {
	t.Helper()
	if _, err := w.Write(append(binary.AppendUvarint(nil, uint64(len(body))), body...)); err != nil {
		t.Fatalf("status ping: %v", err)
	}
}

// loginRefusal starts a login at addr as a client of protocol would and
// returns the reason of the login disconnect the server answers with (a
// JSON text component). It fails the test if the server lets it log in.
func loginRefusal(t *testing.T, addr string, protocol int, username string) string {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		t.Fatalf("login %s: %v", addr, err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	host, portStr, _ := net.SplitHostPort(addr)
	port, _ := strconv.Atoi(portStr)

	var hs bytes.Buffer
	hs.Write(binary.AppendUvarint(nil, 0x00)) // handshake
	hs.Write(binary.AppendUvarint(nil, uint64(protocol)))
	hs.Write(binary.AppendUvarint(nil, uint64(len(host))))
	hs.WriteString(host)
	_ = binary.Write(&hs, binary.BigEndian, uint16(port))
	hs.Write(binary.AppendUvarint(nil, 2)) // next state: login
	writePacket(t, conn, hs.Bytes())
	var login bytes.Buffer
	login.Write(binary.AppendUvarint(nil, 0x00)) // login start: name, UUID
	login.Write(binary.AppendUvarint(nil, uint64(len(username))))
	login.WriteString(username)
	login.Write(make([]byte, 16))
	writePacket(t, conn, login.Bytes())

	r := bufio.NewReader(conn)
	n, err := binary.ReadUvarint(r)
	if err != nil || n > 1<<20 {
		t.Fatalf("login %s: reading length: %v (%d)", addr, err, n)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		t.Fatalf("login %s: %v", addr, err)
	}
	br := bytes.NewReader(body)
	if id, err := binary.ReadUvarint(br); err != nil || id != 0x00 {
		t.Fatalf("login %s: the first packet is %#x (%v), want the login disconnect (0x00)", addr, id, err)
	}
	sl, err := binary.ReadUvarint(br)
	if err != nil || sl > uint64(br.Len()) {
		t.Fatalf("login %s: bad reason length %d, %v", addr, sl, err)
	}
	reason := make([]byte, sl)
	_, _ = io.ReadFull(br, reason)
	return string(reason)
}

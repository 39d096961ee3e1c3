//go:build !unix

package peertest

import (
	"os"
	"os/exec"
)

// ownGroup does nothing here: without Unix process groups, a peer is
// stopped on its own (the peers start no children).
func ownGroup(*exec.Cmd) {}

// signalGroup ends the process pid. There is no polite termination signal
// to send on Windows, so both requests kill it.
func signalGroup(pid int, _ bool) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

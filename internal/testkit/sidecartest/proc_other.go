//go:build !unix

package sidecartest

import (
	"os"
	"os/exec"
)

// OwnProcessGroup does nothing here: Windows has no Unix process groups, and
// the processes the tests start (the sidecar, the node peers) are stopped on
// their own.
func OwnProcessGroup(*exec.Cmd) {}

// TerminateProcessGroup ends the process pid. There is no polite
// termination signal to send on Windows, so it is killed.
func TerminateProcessGroup(pid int) { KillProcessGroup(pid) }

// KillProcessGroup kills the process pid.
func KillProcessGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

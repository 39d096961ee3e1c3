//go:build windows

package sidecartest

import (
	"os"
	"os/exec"
)

// OwnProcessGroup does nothing on Windows, which has no process groups to
// signal; the tests that need them run on Unix.
func OwnProcessGroup(*exec.Cmd) {}

// KillProcessGroup kills the process pid.
func KillProcessGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

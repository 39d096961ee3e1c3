//go:build unix

package sidecartest

import (
	"os/exec"
	"syscall"
)

// OwnProcessGroup starts cmd in a process group of its own, so that
// KillProcessGroup ends it together with any child it starts.
func OwnProcessGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// KillProcessGroup kills the process group led by pid.
func KillProcessGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }

//go:build unix

package sidecartest

import (
	"os/exec"
	"syscall"
)

// OwnProcessGroup starts cmd in a process group of its own, so that killing
// it also kills what it runs under (ip netns exec) or started. These are the
// one set of process-group helpers: internal/testkit/peertest's node peers and the MCP
// tests use them too.
func OwnProcessGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// TerminateProcessGroup asks the process group led by pid to end (SIGTERM).
func TerminateProcessGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGTERM) }

// KillProcessGroup kills the process group led by pid (SIGKILL).
func KillProcessGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }

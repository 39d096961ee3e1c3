//go:build unix

package sidecartest

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that killing it
// also kills what it runs under (ip netns exec) or started.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills cmd's whole process group.
func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

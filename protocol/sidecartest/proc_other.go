//go:build !unix

package sidecartest

import "os/exec"

// ownGroup does nothing here: Windows has no Unix process groups.
func ownGroup(*exec.Cmd) {}

// killGroup kills the sidecar process itself.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

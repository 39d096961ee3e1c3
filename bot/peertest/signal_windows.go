//go:build windows

package peertest

import "syscall"

// signalGroup does nothing on Windows; Stop kills the peer instead.
func signalGroup(int, syscall.Signal) {}

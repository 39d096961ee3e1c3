//go:build unix

package peertest

import "syscall"

// signalGroup sends sig to the process group led by pgid.
func signalGroup(pgid int, sig syscall.Signal) { _ = syscall.Kill(-pgid, sig) }

// Package quietstdout keeps blockmate's non-console commands from writing
// terminal queries to stdout.
//
// Bubble Tea v1 asks the terminal for its background colour in an init
// function (tea_init.go), before main runs: when stdout is a terminal it
// writes "ESC]11;? ESC\ ESC[6n" there. For `blockmate sidecar` stdout
// belongs to the protocol, so that must not happen even when a person runs
// the sidecar by hand in a terminal. termenv skips the query when TERM is
// "dumb", so this package sets that for the commands that draw nothing.
//
// It works because Go initialises packages in lexical order of import path
// among those whose dependencies are ready: this package depends only on
// os, so it is ready no later than Bubble Tea, and
// "github.com/blockmate/…" sorts before "github.com/charmbracelet/…".
// main imports it for its side effect; a test checks the result.
package quietstdout

import "os"

// Quiet reports whether the command line names a command that draws
// nothing, so the terminal query was suppressed.
var Quiet bool

func init() {
	if len(os.Args) < 2 {
		return
	}
	switch os.Args[1] {
	case "sidecar", "tools", "help", "--help", "-help", "-h", "--version", "-version":
		Quiet = true
		os.Setenv("TERM", "dumb")
	}
}

//go:build race

package sidecartest

const raceEnabled = true

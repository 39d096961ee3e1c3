//go:build !race

package sidecartest

const raceEnabled = false

//go:build !race

package build_test

const raceEnabled = false

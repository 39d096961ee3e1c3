package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runConsoleArgs runs the console command with a settings file of the
// test's own, so the machine's settings never count.
func runConsoleArgs(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	args = append([]string{"--config", filepath.Join(t.TempDir(), "console.json")}, args...)
	code = run(args, nil, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestConsoleNeedsATerminal: without a terminal the console says what to
// use instead, exits 2 and writes nothing on stdout (no escape sequences).
func TestConsoleNeedsATerminal(t *testing.T) {
	code, out, errOut := runConsoleArgs(t)
	if code != 2 || out != "" {
		t.Fatalf("exit %d, stdout %q; want 2 and nothing", code, out)
	}
	for _, want := range []string{"needs a terminal", "blockmate sidecar"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q does not say %q", errOut, want)
		}
	}
}

// TestConsoleFlagsAreChecked: a bad --connect or --username is refused at
// start-up with a sentence, before anything else happens.
func TestConsoleFlagsAreChecked(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--connect", "127.0.0.1:99999"}, "from 1 to 65535"},
		{[]string{"--connect", "127.0.0.1:0"}, "from 1 to 65535"},
		{[]string{"--connect", "127.0.0.1"}, "host:port"},
		{[]string{"--connect", "my host:25565"}, "host name"},
		{[]string{"--username", "a b"}, "not a Minecraft name"},
		{[]string{"--username", "seventeen_chars_x"}, "not a Minecraft name"},
	} {
		code, out, errOut := runConsoleArgs(t, tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "needs a terminal") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
	// A bad name in the settings file is named as coming from there.
	cfg := filepath.Join(t.TempDir(), "console.json")
	if err := os.WriteFile(cfg, []byte(`{"username":"no spaces please"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"--config", cfg}, nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), cfg) {
		t.Fatalf("bad settings name: exit %d, %q", code, errOut.String())
	}
	// Good flags reach the terminal check.
	if code, _, errOut := runConsoleArgs(t, "--connect", "127.0.0.1:51234", "--username", "Theo"); code != 2 || !strings.Contains(errOut, "needs a terminal") {
		t.Fatalf("good flags: exit %d, %q", code, errOut)
	}
}

package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot"

	"github.com/blockmate/blockmate/protocol"
)

func call(t *testing.T, d *protocol.Dispatcher, tool, args string) protocol.Response {
	t.Helper()
	var raw map[string]json.RawMessage
	if args != "" {
		if err := json.Unmarshal([]byte(args), &raw); err != nil {
			t.Fatal(err)
		}
	}
	return d.Call(context.Background(), protocol.Request{ID: json.RawMessage(`"x"`), Tool: tool, Args: raw})
}

func TestToolsWithoutAWorld(t *testing.T) {
	c := protocol.NewCatalog()
	d := protocol.NewDispatcher(c, protocol.NewBus(nil), nil)
	Register(c, bot.NewClient(nil, nil, d, bot.Options{}), d)

	if r := call(t, d, "mc_join", `{}`); r.OK || r.Error != "invalid or missing port — run mc_discover_lan first, or ask the user for the port from Minecraft chat" {
		t.Errorf("mc_join without a port: %+v", r)
	}
	if r := call(t, d, "mc_join", `{"port":25565,"username":"no spaces"}`); r.OK || !strings.Contains(r.Error, "not a Minecraft name") {
		t.Errorf("mc_join with a bad name: %+v", r)
	}
	for _, tool := range []string{"mc_get_position", "mc_get_health", "mc_list_players", "mc_respawn", "mc_read_chat"} {
		if r := call(t, d, tool, ""); r.OK || r.Error != bot.ErrNotConnected.Error() {
			t.Errorf("%s without a world: %+v", tool, r)
		}
	}
	if r := call(t, d, "mc_say", `{"message":"hi"}`); r.OK || r.Error != bot.ErrNotConnected.Error() {
		t.Errorf("mc_say without a world: %+v", r)
	}
	if r := call(t, d, "mc_leave", ""); !r.OK || string(r.Result) != `{"left":false,"reason":"the bot was not in a world"}` {
		t.Errorf("mc_leave without a world: %+v %s", r, r.Result)
	}
	r := call(t, d, "mc_status", "")
	if !r.OK || !strings.HasPrefix(string(r.Result), `{"connected":false,"reason":`) {
		t.Errorf("mc_status: %s", r.Result)
	}
	tool, _ := c.Lookup("mc_command")
	if !strings.Contains(tool.Description, "bot's permissions") || tool.Effect != protocol.Destructive {
		t.Errorf("mc_command must say it acts with the bot's permissions: %q", tool.Description)
	}
	for _, name := range []string{"mc_read_chat", "mc_list_players", "mc_command"} {
		if tool, _ := c.Lookup(name); !tool.UntrustedText {
			t.Errorf("%s carries text players wrote and must say so", name)
		}
	}
}

// TestCleanMessageNamesTheCharacter: the refusal names what it found.
func TestCleanMessageNamesTheCharacter(t *testing.T) {
	for in, want := range map[string]string{
		"red \x1b[31m":  "the message contains the control character U+001B, which the game refuses; send plain text on one line",
		"line\nbreak":   "the message contains the control character U+000A, which the game refuses; send plain text on one line",
		"§cred":         "the message contains §, Minecraft's formatting sign, which the game refuses; send plain text without it",
		"fine, thanks!": "",
	} {
		_, err := cleanMessage(in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("cleanMessage(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMessages: chat lines the game would refuse are refused; long ones
// split at spaces within the game's 256 UTF-16 units.
func TestMessages(t *testing.T) {
	if _, err := cleanMessage("  "); err == nil {
		t.Error("empty accepted")
	}
	for _, bad := range []string{"a\nb", "§ahi", "bell\x07", "del\x7f"} {
		if _, err := cleanMessage(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	long := strings.Repeat("word ", 120) // 600 characters
	parts := splitMessage(strings.TrimSpace(long), 256)
	if len(parts) != 3 {
		t.Fatalf("%d parts", len(parts))
	}
	for _, p := range parts {
		if len(p) > 256 || strings.HasPrefix(p, " ") || strings.HasSuffix(p, " ") {
			t.Errorf("part %q", p)
		}
	}
	if got := strings.Join(parts, " "); got != strings.TrimSpace(long) {
		t.Error("splitting lost words")
	}
	emoji := strings.Repeat("😀", 200) // 400 UTF-16 units
	if parts := splitMessage(emoji, 256); len(parts) != 2 || len([]rune(parts[0])) != 128 {
		t.Errorf("emoji split into %d parts", len(parts))
	}
}

package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/blockmate/blockmate/api"
)

// Run opens the console on the terminal and blocks until the player quits
// (after the bot has left the world) or ctx ends.
func Run(ctx context.Context, opts Options, in io.Reader, out io.Writer) error {
	opts.Context = ctx
	m := New(opts)
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithAltScreen(), tea.WithInput(in), tea.WithOutput(out))
	stop := StartPump(ctx, p, m.backend)
	defer stop()
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// Config is the console's settings file, read at start; flags override it.
type Config struct {
	// Username is the name the bot joins with.
	Username string `json:"username,omitempty"`
	// Theme is the theme's name.
	Theme string `json:"theme,omitempty"`
	// Reconnect false turns off the bot's rejoining after a lost
	// connection (as --no-reconnect does); absent means on.
	Reconnect *bool `json:"reconnect,omitempty"`
}

// DefaultConfigPath is where the console looks for its settings:
// $XDG_CONFIG_HOME/blockmate/console.json or the platform's equivalent.
func DefaultConfigPath() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "blockmate", "console.json")
}

// LoadConfig reads the settings file. A missing file is no error: every
// setting has a default.
func LoadConfig(path string) (Config, error) {
	var c Config
	if path == "" {
		return c, nil
	}
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("cannot read the console settings %s: %w", path, err)
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return c, fmt.Errorf("the console settings %s are not valid JSON (%v); fix or delete the file", path, err)
	}
	return c, nil
}

// SaveTheme records the theme in the settings file at path, keeping every
// other setting in it (those this version does not know included). The
// file and its directory are created when missing; the file is replaced
// whole, so a crash never leaves half of it.
func SaveTheme(path, theme string) error {
	if path == "" {
		return nil
	}
	settings := map[string]json.RawMessage{}
	raw, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return fmt.Errorf("cannot read %s: %w", path, err)
	default:
		if err := json.Unmarshal(raw, &settings); err != nil {
			return fmt.Errorf("%s is not valid JSON, so it was left as it is", path)
		}
		if settings == nil {
			settings = map[string]json.RawMessage{}
		}
	}
	name, _ := json.Marshal(theme)
	settings["theme"] = name
	out, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".console-*.json")
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	defer os.Remove(tmp.Name())
	_ = tmp.Chmod(0o644)
	if _, err := tmp.Write(append(out, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("cannot replace %s: %w", path, err)
	}
	return nil
}

// saveThemeCmd saves the theme off the update loop; the result comes back
// as a configSavedMsg, which the console shows, so a switch never writes a
// file without saying so.
func saveThemeCmd(path, theme string) tea.Cmd {
	if path == "" {
		return func() tea.Msg {
			return configSavedMsg{Theme: theme, Err: errors.New("there is no settings file (--config)")}
		}
	}
	return func() tea.Msg { return configSavedMsg{Theme: theme, Path: path, Err: SaveTheme(path, theme)} }
}

// CheckUsername says why name cannot be the bot's name, or nil: the bot's
// own rule (api.ValidUsername), so what starts is what can join.
func CheckUsername(name string) error { return api.ValidUsername(name) }

// CheckAddress reads a world's address, host:port, as --connect takes it,
// and says in a sentence for a person what is wrong with it. The rule is
// mc_join's (api.SplitHost: IPv6 in brackets, the port required); the
// console also wants a host that could be one, and an empty host means
// this computer.
func CheckAddress(addr string) (host string, port int, err error) {
	a := strings.TrimSpace(addr)
	if strings.HasPrefix(a, ":") {
		a = "127.0.0.1" + a
	}
	h, port, err := api.SplitHost(a, 0)
	switch {
	case errors.Is(err, api.ErrNoPort):
		return "", 0, fmt.Errorf("%q is not host:port; give the world's address such as 127.0.0.1:51234 (Minecraft shows the port in chat after Open to LAN)", addr)
	case errors.Is(err, api.ErrBadPort):
		return "", 0, fmt.Errorf("the port in %q must be a number from 1 to 65535, such as 51234 (Minecraft shows it in chat after Open to LAN)", addr)
	case err != nil, net.ParseIP(h) == nil && !hostName.MatchString(h):
		return "", 0, fmt.Errorf("the host in %q is not an IP address or a host name; use one such as 127.0.0.1 or my-pc.local", addr)
	}
	return h, port, nil
}

// hostName is a DNS name: dot-separated labels of letters, digits and
// hyphens.
var hostName = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$`)

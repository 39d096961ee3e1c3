package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	tea "github.com/charmbracelet/bubbletea"
)

// Run opens the console on the terminal and blocks until the player quits
// (after the bot has left the world) or ctx ends.
func Run(ctx context.Context, opts Options, in io.Reader, out io.Writer) error {
	opts.Context = ctx
	p := tea.NewProgram(New(opts), tea.WithContext(ctx), tea.WithAltScreen(), tea.WithInput(in), tea.WithOutput(out))
	stop := StartPump(ctx, p, opts.Dispatcher)
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

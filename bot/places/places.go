// Package places keeps the places people name ("home", "the mine") per
// world, in a small JSON file in the user's config directory, so that
// "go home" works after blockmate was restarted. What it keeps is data:
// names are cleaned like chat (package untrusted) and never read as
// instructions.
package places

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/blockmate/blockmate/geom"
	"github.com/blockmate/blockmate/untrusted"
)

// FileName is the places file's name in its directory.
const FileName = "places.json"

// Limits that keep the file small whatever is asked of it.
const (
	// MaxName is the longest name, in characters.
	MaxName = 32
	// MaxPerWorld is how many places one world keeps.
	MaxPerWorld = 200
	// maxFile bounds what is read of the file: a larger one is refused
	// as corrupt rather than read whole.
	maxFile = 4 << 20
)

// Place is one remembered place.
type Place struct {
	Name      string    `json:"name"`
	Position  geom.Vec3 `json:"position"`
	Dimension string    `json:"dimension,omitempty"`
}

// file is the file's shape: the places of each world by its key.
type file struct {
	Version int                `json:"version"`
	Worlds  map[string][]Place `json:"worlds"`
}

// Store is the places file in one directory. Its methods are safe from
// any goroutine.
type Store struct {
	dir string
	// now names a corrupt file kept aside; tests fix it.
	now func() time.Time

	mu sync.Mutex
}

// NewStore returns the store whose file is in dir (created on the first
// write).
func NewStore(dir string) *Store { return &Store{dir: dir, now: time.Now} }

// DefaultDir is blockmate's directory in the user's config directory
// ($XDG_CONFIG_HOME/blockmate and the platform's equivalents), "" when the
// platform has none.
func DefaultDir() string {
	d, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "blockmate")
}

// WorldKey names a world in the file: the server's host and the world's
// name from its status ping, not the port, which a LAN world changes every
// time it is opened.
func WorldKey(host, motd string) string {
	return strings.ToLower(host) + " " + untrusted.Line(motd)
}

// CleanName is a place's name as kept: cleaned like chat, trimmed, at
// most MaxName characters; an error says what is wrong with it.
func CleanName(name string) (string, error) {
	n := strings.TrimSpace(untrusted.Line(name))
	switch {
	case n == "":
		return "", errors.New("the place's name is empty; give a short name such as home or mine")
	case utf8.RuneCountInString(n) > MaxName:
		return "", fmt.Errorf("the place's name is longer than %d characters; give a shorter one", MaxName)
	}
	return n, nil
}

// CorruptError is a places file that could not be read: it was renamed
// aside (KeptAs) and is never overwritten.
type CorruptError struct {
	Path, KeptAs string
	Err          error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("the places file %s could not be read (%v); it was kept aside as %s and the bot starts with no places: ask the player to mend it or name the places again", e.Path, e.Err, e.KeptAs)
}

func (s *Store) path() string { return filepath.Join(s.dir, FileName) }

// readLocked reads the file; a missing one is empty. A corrupt one is
// renamed aside and reported as a *CorruptError.
func (s *Store) readLocked() (file, error) {
	f := file{Version: 1, Worlds: map[string][]Place{}}
	if s.dir == "" {
		return f, errors.New("there is no config directory to keep places in (os.UserConfigDir has none); set HOME or XDG_CONFIG_HOME")
	}
	fh, err := os.Open(s.path())
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("the places file cannot be opened: %v", err)
	}
	raw, err := io.ReadAll(io.LimitReader(fh, maxFile+1))
	fh.Close()
	if err != nil {
		return f, fmt.Errorf("the places file cannot be read: %v", err)
	}
	var bad error
	switch {
	case len(raw) > maxFile:
		bad = fmt.Errorf("it is larger than %d bytes", maxFile)
	default:
		if err := json.Unmarshal(raw, &f); err != nil {
			bad = err
		} else if f.Version != 1 {
			bad = fmt.Errorf("its version is %d, not 1", f.Version)
		}
	}
	if bad != nil {
		kept := s.path() + ".corrupt-" + s.now().UTC().Format("20060102T150405Z")
		if err := os.Rename(s.path(), kept); err != nil {
			return file{}, fmt.Errorf("the places file %s could not be read (%v) nor kept aside (%v); move it away, then try again", s.path(), bad, err)
		}
		return file{Version: 1, Worlds: map[string][]Place{}}, &CorruptError{Path: s.path(), KeptAs: kept, Err: bad}
	}
	if f.Worlds == nil {
		f.Worlds = map[string][]Place{}
	}
	return f, nil
}

// writeLocked writes the file atomically: a temporary file in the same
// directory, synced, then renamed over the old one, so a crash leaves the
// old file or the new, never half of one.
func (s *Store) writeLocked(f file) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("cannot make the config directory %s: %v", s.dir, err)
	}
	raw, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, FileName+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write the places file: %v", err)
	}
	_, werr := tmp.Write(append(raw, '\n'))
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), s.path())
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cannot write the places file: %v", werr)
	}
	return nil
}

// List is the world's places, by name. A corrupt file's error comes with
// the (empty) list it leaves.
func (s *Store) List(world string) ([]Place, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.readLocked()
	out := append([]Place(nil), f.Worlds[world]...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, err
}

// Get is the world's place called name (names match without case).
func (s *Store) Get(world, name string) (Place, bool, error) {
	list, err := s.List(world)
	for _, p := range list {
		if strings.EqualFold(p.Name, name) {
			return p, true, err
		}
	}
	return Place{}, false, err
}

// Remember keeps p (its name already cleaned) in the world, replacing a
// place of the same name; replaced says whether one was. A corrupt file
// is refused: the error says where it was kept, and nothing is written
// over it until the next call.
func (s *Store) Remember(world string, p Place) (replaced bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.readLocked()
	if err != nil {
		return false, err
	}
	list := f.Worlds[world]
	for i := range list {
		if strings.EqualFold(list[i].Name, p.Name) {
			list[i] = p
			replaced = true
		}
	}
	if !replaced {
		if len(list) >= MaxPerWorld {
			return false, fmt.Errorf("this world already has %d places, the most the bot keeps; forget one with mc_forget_place first", MaxPerWorld)
		}
		list = append(list, p)
	}
	f.Worlds[world] = list
	return replaced, s.writeLocked(f)
}

// Forget removes the world's place called name, and says whether there
// was one.
func (s *Store) Forget(world, name string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.readLocked()
	if err != nil {
		return false, err
	}
	list := f.Worlds[world]
	kept := list[:0:0]
	for _, p := range list {
		if !strings.EqualFold(p.Name, name) {
			kept = append(kept, p)
		}
	}
	if len(kept) == len(list) {
		return false, nil
	}
	if len(kept) == 0 {
		delete(f.Worlds, world)
	} else {
		f.Worlds[world] = kept
	}
	return true, s.writeLocked(f)
}

package peertest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"sync"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// Release is one game release the peers can serve, as testdata/peers/
// versions.js reads it from the pinned minecraft-data: its name, protocol
// number, the minecraft-data version that describes its protocol, whether
// mineflayer joins it and flying-squid serves it, and whether its protocol
// has dialogs (1.21.6+) and a code of conduct (1.21.9+), read from the
// protocol definition.
type Release struct {
	Version       string `json:"version"`
	Protocol      int    `json:"protocol"`
	DataVersion   string `json:"dataVersion"`
	Mineflayer    bool   `json:"mineflayer"`
	FlyingSquid   bool   `json:"flyingSquid"`
	Dialog        bool   `json:"dialog"`
	CodeOfConduct bool   `json:"codeOfConduct"`
}

var releases struct {
	once sync.Once
	list []Release
	err  error
}

// Releases lists, oldest first, the releases the minecraft-protocol server
// (mpserver.js) serves from the oldest protocol blockmate speaks on: every
// release name minecraft-data knows whose protocol minecraft-protocol
// supports. The list comes from the pinned minecraft-data through
// versions.js, so it is nobody's hand-written list, and it names releases
// that share a protocol (1.21.9 and 1.21.10) separately.
func Releases(t testing.TB) []Release {
	t.Helper()
	dir := PeersDir(t)
	NodeModules(t)
	list, err := ReadReleases(dir)
	if err != nil {
		t.Fatalf("peertest: %v", err)
	}
	return list
}

// ReadReleases is Releases for programs that are not tests (the
// benchmark): dir is testdata/peers, with its peers installed.
func ReadReleases(dir string) ([]Release, error) {
	releases.once.Do(func() {
		cmd := exec.Command(nodeIn(dir), "versions.js")
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			releases.err = fmt.Errorf("node versions.js: %v\n%s", err, stderr.String())
			return
		}
		oldest := mcdata.Releases()[0].Protocol
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			var r Release
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				releases.err = fmt.Errorf("node versions.js printed %q: %v", sc.Text(), err)
				return
			}
			if r.Protocol >= oldest {
				releases.list = append(releases.list, r)
			}
		}
		if len(releases.list) == 0 {
			releases.err = fmt.Errorf("node versions.js listed no release from protocol %d on:\n%s", oldest, out)
		}
	})
	if releases.err != nil {
		return nil, releases.err
	}
	return append([]Release(nil), releases.list...), nil
}

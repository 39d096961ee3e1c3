// Command gen writes bot/mcdata's generated tables from minecraft-data, the
// npm package pinned in testdata/peers/package.json, and from the release
// facts of bot/mcdata/internal/gen/sources (26.2, 26.3), whose
// minecraft-data-format datasets it also writes into testdata/peers/mcdata.
// Run it with `go generate ./bot/mcdata` after `npm ci --prefix
// testdata/peers`.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blockmate/blockmate/bot/mcdata/internal/gen"
)

func main() {
	root := flag.String("root", "../..", "the repository root, relative to the working directory")
	out := flag.String("out", ".", "where to write the generated files")
	flag.Parse()
	files, err := gen.Generate(gen.PackageDir(*root))
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	for name, content := range files {
		// The datasets emitted for the test peers go to their own folder
		// (testdata/peers/mcdata), named from bot/mcdata.
		path := filepath.Join(*out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}

// Command gen writes bot/mcdata's generated tables from minecraft-data, the
// npm package pinned in testdata/peers/package.json. Run it with
// `go generate ./bot/mcdata` after `npm ci --prefix testdata/peers`.
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
		if err := os.WriteFile(filepath.Join(*out, name), content, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}

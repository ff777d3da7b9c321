// The Go oracle of `repolens-tui-bench graph-oracle --language go`: go/types, the type
// checker the Go tools use, says which function, method or type each call site names. Run
// with `go run OracleGo.go`: standard library only, nothing built or installed.
//
// Reads on stdin: the root on the first line, then one site per line,
// "path<TAB>line<TAB>column" (path relative to the root, line 1-based, column 0-based in
// characters). Writes one line per site: "null" when no called name stands there, else a
// JSON array of [path or "" outside the root, line, name] (empty: go/types could not say,
// or the call goes through a variable, whose value it does not know).
//
// Every package under the root is checked from source; imports inside the root's modules
// (their go.mod lines) are checked the same way, the standard library is read from its
// export data, and anything else is an empty package, so calls into it stay unresolved.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

type site struct {
	path   string
	line   int
	column int // in characters
}

type checker struct {
	root     string
	fset     *token.FileSet
	modules  map[string]string // module path -> its folder
	files    map[string]*ast.File
	imported map[string]*types.Package // import path -> checked without its tests
	stdlib   types.Importer
	uses     map[*ast.Ident]types.Object
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	in.Scan()
	root, err := filepath.EvalSymlinks(strings.TrimSpace(in.Text()))
	if err != nil {
		fail(err)
	}
	var sites []site
	for in.Scan() {
		parts := strings.Split(in.Text(), "\t")
		if len(parts) != 3 {
			continue
		}
		line, _ := strconv.Atoi(parts[1])
		column, _ := strconv.Atoi(parts[2])
		sites = append(sites, site{parts[0], line, column})
	}
	c := &checker{
		root:     root,
		fset:     token.NewFileSet(),
		modules:  map[string]string{},
		files:    map[string]*ast.File{},
		imported: map[string]*types.Package{},
		stdlib:   nil,
		uses:     map[*ast.Ident]types.Object{},
	}
	// The standard library's export data, its positions in the same file set as ours.
	c.stdlib = importer.ForCompiler(c.fset, "gc", nil)
	c.readModules()
	wanted := map[string]bool{}
	for _, s := range sites {
		wanted[filepath.Dir(filepath.Join(root, s.path))] = true
	}
	folders := make([]string, 0, len(wanted))
	for folder := range wanted {
		folders = append(folders, folder)
	}
	sort.Strings(folders)
	for _, folder := range folders {
		c.checkFolder(folder)
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for _, s := range sites {
		answer, _ := json.Marshal(c.answer(s))
		out.Write(answer)
		out.WriteString("\n")
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(2)
}

// readModules finds every go.mod under the root: an import path inside one is a folder here.
func (c *checker) readModules() {
	filepath.WalkDir(c.root, func(path string, entry os.DirEntry, err error) error {
		if err != nil || entry.IsDir() || entry.Name() != "go.mod" {
			return nil
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		for _, line := range strings.Split(string(text), "\n") {
			fields := strings.Fields(line)
			if len(fields) >= 2 && fields[0] == "module" {
				c.modules[strings.Trim(fields[1], `"`)] = filepath.Dir(path)
			}
		}
		return nil
	})
}

// folderOf is the folder an import path names inside the root's modules ("" outside them);
// the longest module path wins (a nested module owns its own folders).
func (c *checker) folderOf(path string) string {
	best, folder := "", ""
	for module, dir := range c.modules {
		if (path == module || strings.HasPrefix(path, module+"/")) && len(module) > len(best) {
			best, folder = module, filepath.Join(dir, strings.TrimPrefix(path, module))
		}
	}
	return folder
}

// parsed reads a folder's Go files that build on this machine, split into the package's
// own files, its in-package tests, and its external tests (`package x_test`).
func (c *checker) parsed(folder string) (own, tests, external []*ast.File) {
	entries, err := os.ReadDir(folder)
	if err != nil {
		return nil, nil, nil
	}
	for _, entry := range entries {
		name := entry.Name()
		if entry.IsDir() || !strings.HasSuffix(name, ".go") {
			continue
		}
		if ok, err := build.Default.MatchFile(folder, name); err != nil || !ok {
			continue
		}
		path := filepath.Join(folder, name)
		file, seen := c.files[path]
		if !seen {
			file, _ = parser.ParseFile(c.fset, path, nil, parser.ParseComments)
			c.files[path] = file
		}
		if file == nil {
			continue
		}
		switch {
		case !strings.HasSuffix(name, "_test.go"):
			own = append(own, file)
		case strings.HasSuffix(file.Name.Name, "_test"):
			external = append(external, file)
		default:
			tests = append(tests, file)
		}
	}
	return own, tests, external
}

func (c *checker) check(path string, files []*ast.File) *types.Package {
	config := types.Config{Importer: c, Error: func(error) {}}
	info := &types.Info{Uses: c.uses}
	pkg, _ := config.Check(path, c.fset, files, info)
	return pkg
}

// Import is the checker's importer: the root's own packages from source, the standard
// library from export data, anything else an empty package.
func (c *checker) Import(path string) (*types.Package, error) {
	if pkg, ok := c.imported[path]; ok {
		return pkg, nil
	}
	var pkg *types.Package
	if folder := c.folderOf(path); folder != "" {
		c.imported[path] = types.NewPackage(path, filepath.Base(path)) // an import cycle ends here
		own, _, _ := c.parsed(folder)
		pkg = c.check(path, own)
	} else if std, err := c.stdlib.Import(path); err == nil {
		pkg = std
	}
	if pkg == nil {
		pkg = types.NewPackage(path, filepath.Base(path))
		pkg.MarkComplete()
	}
	c.imported[path] = pkg
	return pkg, nil
}

// checkFolder checks a folder's package with its in-package tests, then its external tests.
func (c *checker) checkFolder(folder string) {
	own, tests, external := c.parsed(folder)
	path := c.importPath(folder)
	if len(own)+len(tests) > 0 {
		c.check(path, append(append([]*ast.File{}, own...), tests...))
	}
	if len(external) > 0 {
		c.check(path+"_test", external)
	}
}

func (c *checker) importPath(folder string) string {
	best, path := "", ""
	for module, dir := range c.modules {
		rel, err := filepath.Rel(dir, folder)
		if err != nil || strings.HasPrefix(rel, "..") || len(dir) <= len(best) && best != "" {
			continue
		}
		best, path = dir, filepath.ToSlash(filepath.Join(module, rel))
	}
	if path == "" {
		rel, _ := filepath.Rel(c.root, folder)
		path = filepath.ToSlash(filepath.Join("oracle.invalid", rel))
	}
	return path
}

// answer: the called name at the site and what go/types says it uses.
func (c *checker) answer(s site) []interface{} {
	file := c.files[filepath.Join(c.root, s.path)]
	if file == nil {
		return nil
	}
	tokenFile := c.fset.File(file.Pos())
	text, err := os.ReadFile(tokenFile.Name())
	if err != nil || s.line < 1 || s.line > tokenFile.LineCount() {
		return nil
	}
	start := tokenFile.Offset(tokenFile.LineStart(s.line))
	offset := start
	for i := 0; i < s.column && offset < len(text); i++ {
		_, size := utf8.DecodeRune(text[offset:])
		offset += size
	}
	at := tokenFile.Pos(offset)
	var called *ast.Ident
	ast.Inspect(file, func(node ast.Node) bool {
		if called != nil || node == nil || node.Pos() > at || node.End() <= at {
			return false
		}
		if id, ok := node.(*ast.Ident); ok && id.Pos() == at {
			called = id
		}
		return true
	})
	if called == nil {
		return nil
	}
	out := []interface{}{}
	switch object := c.uses[called].(type) {
	case *types.Func, *types.TypeName:
		out = append(out, c.target(object))
	case *types.Builtin:
		out = append(out, []interface{}{"", 0, object.Name()})
	}
	return out
}

func (c *checker) target(object types.Object) []interface{} {
	where := c.fset.Position(object.Pos())
	rel, err := filepath.Rel(c.root, where.Filename)
	if where.Filename == "" || err != nil || strings.HasPrefix(rel, "..") {
		return []interface{}{"", where.Line, object.Name()}
	}
	return []interface{}{filepath.ToSlash(rel), where.Line, object.Name()}
}

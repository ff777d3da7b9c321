// The TypeScript oracle of `repolens-tui-bench graph-oracle`: the compiler's language service
// answers "go to definition" at each call site. Reads {root, sites: [[file, line, column]]}
// (paths relative to root, line 1-based, column 0-based) as JSON on stdin; writes one answer
// per site: null when the service failed there, else [[path or "" outside root, line, name]].
"use strict";

const fs = require("fs");
const path = require("path");
const ts = require("typescript");

const DEFAULTS = {
  allowJs: true,
  noEmit: true,
  target: ts.ScriptTarget.ESNext,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.Preserve,
  lib: ["lib.esnext.d.ts"], // a project without a tsconfig gets the language, not the DOM
  types: [],
};

function nearestConfig(root, file) {
  let dir = path.dirname(file);
  while (dir.startsWith(root)) {
    const candidate = path.join(dir, "tsconfig.json");
    if (fs.existsSync(candidate)) return candidate;
    if (dir === root) break;
    dir = path.dirname(dir);
  }
  return "";
}

function compilerSettings(config) {
  if (!config) return { options: DEFAULTS, files: [] };
  const read = ts.readConfigFile(config, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(read.config || {}, ts.sys, path.dirname(config));
  return { options: { ...parsed.options, allowJs: true, noEmit: true }, files: parsed.fileNames };
}

function languageService(root, options, files) {
  const host = {
    getScriptFileNames: () => files,
    getScriptVersion: () => "1",
    getScriptSnapshot: (name) =>
      fs.existsSync(name) ? ts.ScriptSnapshot.fromString(fs.readFileSync(name, "utf8")) : undefined,
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}

function answer(service, root, file, line, column) {
  const program = service.getProgram();
  const source = program.getSourceFile(file);
  if (!source) return null;
  const position = source.getPositionOfLineAndCharacter(line - 1, column);
  // An import the service cannot follow (its module is not installed) leaves only the
  // import's own name: that is no definition, so the oracle does not know.
  const found = (service.getDefinitionAtPosition(file, position) || []).filter(
    (d) => d.kind !== ts.ScriptElementKind.alias,
  );
  return found.map((d) => {
    const target = program.getSourceFile(d.fileName);
    const at = target ? target.getLineAndCharacterOfPosition(d.textSpan.start).line + 1 : 0;
    const inside = d.fileName.startsWith(root + "/") && !d.fileName.includes("/node_modules/");
    return [inside ? path.relative(root, d.fileName) : "", at, d.name];
  });
}

function main() {
  const request = JSON.parse(fs.readFileSync(0, "utf8"));
  const root = fs.realpathSync(request.root);
  const groups = new Map(); // tsconfig (or "") -> indexes of its sites
  request.sites.forEach(([file], i) => {
    const config = nearestConfig(root, path.join(root, file));
    if (!groups.has(config)) groups.set(config, []);
    groups.get(config).push(i);
  });
  const out = new Array(request.sites.length).fill(null);
  for (const [config, indexes] of groups) {
    const { options, files } = compilerSettings(config);
    const names = new Set(files);
    for (const i of indexes) names.add(path.join(root, request.sites[i][0]));
    const service = languageService(root, options, [...names]);
    for (const i of indexes) {
      const [file, line, column] = request.sites[i];
      try {
        out[i] = answer(service, root, path.join(root, file), line, column);
      } catch (error) {
        out[i] = null;
      }
    }
  }
  process.stdout.write(JSON.stringify(out));
}

main();

// The bundle bin/tvcwatch runs (`npm run bundle`): esbuild, then fewer files on the paths that
// start the program.
//
// esbuild's code splitting makes one chunk for each set of entry points (the two given, and every
// module a dynamic import() loads) that share modules. It does not know that main.js is always
// loaded first, nor that `tail` loads tail-command, then run-tail: the modules `tail` runs are
// spread over some 45 files because other commands share different parts of them, and Node's ESM
// loader pays for each file (resolving, reading, compiling and linking it). So the chunks are
// merged here by what the start-up paths below need: every chunk main.js imports is one file
// (all of them are loaded at every start); the others, one file for each set of the paths'
// modules (tail-command, run-tail, open-command, run-open, and the index worker, which starts in
// a thread of its own) that import them. A command off these paths loads the merged file whole
// where it needed a part of it. Each file keeps esbuild's comments naming the sources it holds.
//
// A merged file is a group of chunks that the same paths import; a chunk between two of a group
// (imported by one, importing another) is imported by the same paths, so it is in the group too:
// merging makes no cycle. Each chunk's exports keep their place in a merged file under a name of
// their own, and every import of the chunk is rewritten to that file and those names.
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import * as esbuild from "esbuild";
import { PATCHED_FILES, patchedPath, patchedSource } from "./bundle-patches.mjs";

/** Where: dist/bundle, or the folder given (to build beside it). */
const OUT = resolve(process.argv[2] ?? "dist/bundle");
const MAIN = "src/cli/main.ts";
const WORKER = "src/logs/saved/index-worker.ts";
/** The modules the start-up paths load after main.js, in the main thread. */
const AFTER_MAIN = [
  "src/cli/commands/tail/tail-command.ts",
  "src/cli/commands/tail/run-tail.ts",
  "src/cli/commands/open/open-command.ts",
  "src/tui/app/run-open.tsx",
];
const BANNER =
  "import { createRequire as __tvcwatchRequire } from 'node:module'; const require = __tvcwatchRequire(import.meta.url);";
/** A path as a regular expression matching it alone (esbuild's filters are Go's RE2). */
const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The dependencies' start-up patches (./bundle-patches.mjs), applied as esbuild reads them. */
const patched = {
  name: "patched",
  setup(build) {
    const applied = new Set();
    for (const file of PATCHED_FILES)
      build.onLoad({ filter: new RegExp(`^${literal(patchedPath(file))}$`) }, (args) => {
        applied.add(file);
        return {
          contents: patchedSource(args.path, readFileSync(args.path, "utf8")),
          loader: "js",
        };
      });
    build.onEnd(() => {
      for (const file of PATCHED_FILES)
        if (!applied.has(file))
          throw new Error(`bundle: ${file} was not bundled; its patch is left`);
    });
  },
};
/** esbuild's comment naming the source that follows (kept through the merge). */
const SOURCE_COMMENT = /^\/\/ ((?:src|node_modules)\/\S+)$/gm;

rmSync(OUT, { recursive: true, force: true });
const { metafile } = await esbuild.build({
  entryPoints: [MAIN, WORKER],
  entryNames: "[name]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  outdir: OUT,
  define: { "process.env.NODE_ENV": '"production"' },
  external: ["react-devtools-core"],
  logLevel: "warning",
  banner: { js: BANNER },
  metafile: true,
  plugins: [patched],
});

// Every path below is absolute (the metafile's are from the working folder).
const outputs = Object.fromEntries(
  Object.entries(metafile.outputs).map(([path, o]) => [
    resolve(path),
    { ...o, imports: o.imports.map((i) => (i.external ? i : { ...i, path: resolve(i.path) })) },
  ]),
);
const entryOutput = new Map(
  Object.entries(outputs)
    .filter(([, o]) => o.entryPoint !== undefined)
    .map(([path, o]) => [relative(process.cwd(), resolve(o.entryPoint)), path]),
);
/** Output files an output imports statically, itself included. */
function closure(path, seen = new Set()) {
  if (seen.has(path)) return seen;
  seen.add(path);
  for (const i of outputs[path].imports)
    if (i.kind === "import-statement" && !i.external) closure(i.path, seen);
  return seen;
}
function outputOf(entry) {
  const path = entryOutput.get(entry);
  if (path === undefined) throw new Error(`bundle: no output for ${entry}`);
  return path;
}
const mainClosure = closure(outputOf(MAIN));
const workerClosure = closure(outputOf(WORKER));
const afterMain = AFTER_MAIN.map((entry) => closure(outputOf(entry)));

/** The chunks (no entry points) grouped by the paths that import them. */
const groups = new Map();
for (const [path, o] of Object.entries(outputs)) {
  if (o.entryPoint !== undefined || !path.endsWith(".js")) continue;
  const inMain = mainClosure.has(path);
  const key = [
    inMain ? "main" : afterMain.map((c) => (c.has(path) ? "1" : "0")).join(""),
    workerClosure.has(path) ? "worker" : "",
  ].join(" ");
  if (!inMain && !workerClosure.has(path) && !afterMain.some((c) => c.has(path))) continue;
  groups.set(key, [...(groups.get(key) ?? []), path]);
}

/** For each merged chunk: its merged file and the prefix its exports take there. */
const mergedInto = new Map();
const merges = [];
for (const members of groups.values()) {
  if (members.length < 2) continue;
  members.sort();
  const hash = createHash("sha256").update(members.join("\n")).digest("hex").slice(0, 8);
  const file = join(OUT, `chunk-${hash.toUpperCase()}.js`);
  members.forEach((m, i) => {
    mergedInto.set(m, { file, prefix: `m${i}$` });
  });
  merges.push({ file, members });
}

const local = (path) => `./${relative(OUT, path)}`;
for (const { file, members } of merges) {
  // esbuild drops plain comments: the sources' names go through as legal comments (`//!`).
  const contents = new Map(
    members.map((m) => [m, readFileSync(m, "utf8").replace(SOURCE_COMMENT, "//! $1")]),
  );
  const entry = members
    .map((m) => {
      const { prefix } = mergedInto.get(m);
      const names = outputs[m].exports.map((name) => `${name} as ${prefix}${name}`);
      return `export { ${names.join(", ")} } from ${JSON.stringify(local(m))};`;
    })
    .join("\n");
  const result = await esbuild.build({
    stdin: { contents: entry, resolveDir: OUT, sourcefile: "merge.js", loader: "js" },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    legalComments: "inline",
    logLevel: "warning",
    plugins: [
      {
        name: "merge",
        setup(build) {
          // A member is read as esbuild wrote it; anything else stays an import of its file.
          build.onResolve({ filter: /.*/ }, (args) => {
            const path = join(args.resolveDir, args.path);
            return contents.has(path)
              ? { path, namespace: "member" }
              : { path: args.path, external: true };
          });
          build.onLoad({ filter: /.*/, namespace: "member" }, (args) => ({
            contents: contents.get(args.path),
            resolveDir: OUT,
            loader: "js",
          }));
        },
      },
    ],
  });
  const text = result.outputFiles[0].text
    .replace(/^\/\/ member:\S+\n/gm, "")
    .replace(/^\/\/! ((?:src|node_modules)\/\S+)$/gm, "// $1");
  writeFileSync(file, text);
  for (const m of members) rmSync(m);
}

/** Every import of a merged chunk, in every file left, made an import of its merged file. */
const IMPORT = /import\s*(?:\{([^}]*)\}\s*from\s*)?"(\.\/chunk-[A-Z0-9]+\.js)";/g;
const files = [
  ...Object.keys(outputs).filter((p) => p.endsWith(".js") && !mergedInto.has(p)),
  ...merges.map((m) => m.file),
];
for (const path of files) {
  const text = readFileSync(path, "utf8");
  const rewritten = text.replace(IMPORT, (whole, names, spec) => {
    const target = mergedInto.get(join(OUT, spec));
    if (target === undefined) return whole;
    const to = JSON.stringify(local(target.file));
    if (names === undefined) return `import ${to};`;
    const renamed = names
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean)
      .map((n) => {
        const [imported, as = imported] = n.split(/\s+as\s+/);
        return `${target.prefix}${imported} as ${as}`;
      });
    return `import { ${renamed.join(", ")} } from ${to};`;
  });
  for (const m of rewritten.matchAll(IMPORT))
    if (mergedInto.has(join(OUT, m[2])))
      throw new Error(`bundle: ${path} still imports ${m[2]}, merged`);
  if (rewritten !== text) writeFileSync(path, rewritten);
}

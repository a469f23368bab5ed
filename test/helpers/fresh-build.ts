/**
 * The builds tests run, made again only when their sources changed. `bundle` is what
 * bin/tvcwatch runs (esbuild, `npm run bundle`): every test that spawns the program needs it, so
 * the global set-up makes it. `dist` is one module per file as `npm run build`'s tsc leaves it:
 * only a test that imports dist/ asks for it (`beforeAll(() => freshBuild("dist"))`). It is made
 * by esbuild transpiling each file (no type check: `npm test` runs tsc for that): under the
 * tsconfig's verbatimModuleSyntax an import is emitted exactly as written and `import type`
 * dropped, by tsc and esbuild alike, so the module graph is tsc's.
 *
 * A build is current when its stamp file holds the hash of its inputs (every file under src/, the
 * bundle script, the package and lock files, the tsconfig) and no output is newer than the stamp: a build made by
 * hand since (`npm run bundle`, `tsc`) is not trusted, since nobody knows which sources it was
 * made from. Test files that run at once and
 * ask for the same build wait for one another (a lock directory), so it is made once.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** Where the stamps and locks are kept: out of dist/, which the package ships. */
const STAMPS = join(ROOT, "node_modules/.cache/tvcwatch-test-build");

interface Build {
  /** Files and folders (walked) whose contents the build depends on, from the root. */
  inputs: readonly string[];
  /** Its stamp (in STAMPS): the inputs' hash, written once the build succeeded. */
  stamp: string;
  /** An output every build writes afresh: newer than the stamp means built by hand since. */
  output: string;
  /** The command, as argv. */
  command: readonly string[];
}

const BUILDS = {
  bundle: {
    inputs: [
      "src",
      "tools/bundle.mjs",
      "tools/bundle-patches.mjs",
      "package.json",
      "package-lock.json",
      "tsconfig.json",
    ],
    stamp: "bundle.sources-hash",
    output: "dist/bundle/main.js",
    command: ["npm", "run", "--silent", "bundle"],
  },
  dist: {
    inputs: ["src", "package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json"],
    stamp: "dist.sources-hash",
    output: "dist/cli/main.js",
    command: [
      join(ROOT, "node_modules/.bin/esbuild"),
      ...filesOf("src").filter((f) => /\.tsx?$/.test(f)),
      "--outdir=dist",
      "--outbase=src",
      "--format=esm",
      "--platform=node",
      "--target=node20",
      "--jsx=automatic",
      "--log-level=warning",
    ],
  },
} satisfies Record<string, Build>;

export type BuildName = keyof typeof BUILDS;

/** Every file under `path` (or `path` itself), root-relative, in a stable order. */
function filesOf(path: string): string[] {
  const full = join(ROOT, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full, { withFileTypes: true })
    .map((d) => d.name)
    .sort()
    .flatMap((name) => filesOf(join(path, name)));
}

/** The hash of the build's inputs: each file's path and bytes. */
export function sourcesHash(name: BuildName): string {
  const hash = createHash("sha256");
  for (const file of BUILDS[name].inputs.flatMap(filesOf)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(ROOT, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function isCurrent(build: Build, hash: string): boolean {
  const stamp = join(STAMPS, build.stamp);
  const output = join(ROOT, build.output);
  if (!existsSync(stamp) || !existsSync(output)) return false;
  if (statSync(output).mtimeMs > statSync(stamp).mtimeMs) return false;
  return readFileSync(stamp, "utf8") === hash;
}

const LOCK_STALE_MS = 5 * 60_000;

/** Runs `work` holding the build's lock (a directory: made by one process at a time). */
function withLock(name: BuildName, work: () => void): void {
  const lock = join(STAMPS, `${name}.lock`);
  mkdirSync(STAMPS, { recursive: true });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      // A lock left by a process that died mid-build is taken over.
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      const age = Date.now() - since;
      if (age > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(pause, 0, 0, 200);
    }
  }
  try {
    work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Makes the build unless it is current; says on stderr when it builds. */
export function freshBuild(name: BuildName): void {
  const build: Build = BUILDS[name];
  if (isCurrent(build, sourcesHash(name))) return;
  withLock(name, () => {
    // Another test file may have made it while this one waited.
    const hash = sourcesHash(name);
    if (isCurrent(build, hash)) return;
    process.stderr.write(`test set-up: building ${name} (sources changed)\n`);
    const [command, ...args] = build.command as [string, ...string[]];
    execFileSync(command, args, { cwd: ROOT, stdio: "inherit" });
    writeFileSync(join(STAMPS, build.stamp), hash);
  });
}

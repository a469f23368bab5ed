/**
 * The one way to write a file (src/config/atomic-file.ts): a temporary name with a random part,
 * created exclusively without following symlinks, mode 0600 from creation; the temporary file
 * removed on failure; a symlink or a file planted at the temporary name (or, for a new file, at
 * the name itself) never written through; and nothing else in src/ writes a file, but the one
 * way to append to one (src/config/append-file.ts, tested in ./append-file.test.ts).
 */
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";

/** The random part of the next temporary names, when a test sets it. */
const fixed: { bytes: Buffer | undefined } = { bytes: undefined };
vi.mock("node:crypto", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:crypto")>();
  return {
    ...real,
    randomBytes: (n: number) => fixed.bytes ?? real.randomBytes(n),
  };
});

const { claimName, removeStaleTempFiles, tempPathOf, writeFileAtomically, writeNewFile } =
  await import("../../src/config/atomic-file.js");

afterEach(() => {
  fixed.bytes = undefined;
});

/** A directory anyone may write in, as /tmp: mode 1777. */
function sharedDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "tvcwatch-atomic-"));
  chmodSync(dir, 0o1777);
  return dir;
}

/** Another user's file, as far as the test can make one: 0644, with its own text. */
function victim(dir: string): string {
  const path = join(dir, "victim");
  writeFileSync(path, "someone else's data\n", { mode: 0o644 });
  chmodSync(path, 0o644);
  return path;
}

describe("writeFileAtomically", () => {
  it("replaces the file, owner-only, and leaves no temporary file", () => {
    const dir = sharedDir();
    const path = join(dir, "checkpoint.json");
    writeFileSync(path, "old", { mode: 0o644 });
    writeFileAtomically(path, '{"new":true}');
    expect(readFileSync(path, "utf8")).toBe('{"new":true}');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["checkpoint.json"]);
    writeFileAtomically(path, "public", { mode: 0o644 });
    expect(statSync(path).mode & 0o777).toBe(0o644);
  });

  it("names its temporary file .NAME.<pid>.<16 random hex>.tmp, a new name each time", () => {
    const path = join(tmpdir(), "x.json");
    const a = basename(tempPathOf(path));
    const b = basename(tempPathOf(path));
    expect(a).toMatch(new RegExp(`^\\.x\\.json\\.${process.pid}\\.[0-9a-f]{16}\\.tmp$`));
    expect(a).not.toBe(b);
  });

  it("never writes through a symlink planted at its temporary name", () => {
    const dir = sharedDir();
    const target = victim(dir);
    const path = join(dir, "checkpoint.json");
    fixed.bytes = Buffer.from("0123456789abcdef", "hex");
    const temp = tempPathOf(path);
    symlinkSync(target, temp);
    expect(() => writeFileAtomically(path, "checkpoint")).toThrow(/EEXIST/);
    expect(readFileSync(target, "utf8")).toBe("someone else's data\n");
    expect(statSync(target).mode & 0o777).toBe(0o644);
    // The planted link is left as it was (not ours), and nothing was renamed over the file.
    expect(lstatSync(temp).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([basename(temp), "victim"].sort());
  });

  it("never reuses a file planted at its temporary name (its owner and mode would stay)", () => {
    const dir = sharedDir();
    const path = join(dir, "state.json");
    fixed.bytes = Buffer.from("fedcba9876543210", "hex");
    const temp = tempPathOf(path);
    writeFileSync(temp, "planted", { mode: 0o666 });
    expect(() => writeFileAtomically(path, "secret")).toThrow(/EEXIST/);
    expect(readFileSync(temp, "utf8")).toBe("planted");
  });

  it("removes its temporary file when the rename fails", () => {
    const dir = sharedDir();
    const path = join(dir, "taken");
    mkdirSync(path);
    writeFileSync(join(path, "inside"), "");
    expect(() => writeFileAtomically(path, "text")).toThrow();
    expect(readdirSync(dir)).toEqual(["taken"]);
  });
});

describe("writeNewFile", () => {
  it("creates the file owner-only, and refuses any name that exists, a symlink included", () => {
    const dir = sharedDir();
    const path = join(dir, "view.log");
    writeNewFile(path, "lines\n");
    expect(readFileSync(path, "utf8")).toBe("lines\n");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(() => writeNewFile(path, "again")).toThrow(/EEXIST/);
    const target = victim(dir);
    const planted = join(dir, "planted.log");
    symlinkSync(target, planted);
    expect(() => writeNewFile(planted, "view")).toThrow(/EEXIST/);
    const dangling = join(dir, "dangling.log");
    symlinkSync(join(dir, "nowhere"), dangling);
    expect(() => writeNewFile(dangling, "view")).toThrow(/EEXIST/);
    expect(readdirSync(dir)).not.toContain("nowhere");
    expect(readFileSync(target, "utf8")).toBe("someone else's data\n");
  });
});

describe("claimName", () => {
  it("makes the file whole under a name nothing has, and leaves any name that is taken as it is, a symlink included", () => {
    const dir = sharedDir();
    const path = join(dir, "dep.checkpoint.lock");
    expect(claimName(path, '{"pid":1}\n')).toBe(true);
    expect(readFileSync(path, "utf8")).toBe('{"pid":1}\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(claimName(path, "another")).toBe(false);
    expect(readFileSync(path, "utf8")).toBe('{"pid":1}\n');
    const target = victim(dir);
    const planted = join(dir, "planted.lock");
    symlinkSync(target, planted);
    expect(claimName(planted, "lock")).toBe(false);
    const dangling = join(dir, "dangling.lock");
    symlinkSync(join(dir, "nowhere"), dangling);
    expect(claimName(dangling, "lock")).toBe(false);
    expect(readdirSync(dir)).not.toContain("nowhere");
    expect(readFileSync(target, "utf8")).toBe("someone else's data\n");
    // No temporary file is left behind, whatever happened.
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });
});

describe("removeStaleTempFiles", () => {
  it("removes only regular files of its pattern whose process is gone", () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-stale-"));
    const path = join(dir, "c.json");
    // pid 2^22 + 1 is above Linux's largest pid: no process has it.
    const gone = 4_194_305;
    const names = {
      stale: `.c.json.${gone}.0123456789abcdef.tmp`,
      legacy: `.c.json.${gone}.tmp`,
      ownEarlierLife: `.c.json.${process.pid}.0123456789abcdef.tmp`,
      running: `.c.json.1.0123456789abcdef.tmp`,
      otherFile: `.d.json.${gone}.0123456789abcdef.tmp`,
      notOurPattern: `.c.json.${gone}.xyz.tmp`,
      link: `.c.json.${gone}.aaaaaaaaaaaaaaaa.tmp`,
      directory: `.c.json.${gone}.bbbbbbbbbbbbbbbb.tmp`,
    };
    for (const [kind, name] of Object.entries(names)) {
      if (kind === "link") symlinkSync(join(dir, names.otherFile), join(dir, name));
      else if (kind === "directory") mkdirSync(join(dir, name));
      else writeFileSync(join(dir, name), "");
    }
    expect(removeStaleTempFiles(path).sort()).toEqual(
      [names.stale, names.legacy, names.ownEarlierLife].sort(),
    );
    expect(readdirSync(dir).sort()).toEqual(
      [names.running, names.otherFile, names.notOurPattern, names.link, names.directory].sort(),
    );
  });
});

describe("the seam, by construction", () => {
  it("only src/config/atomic-file.ts and src/config/append-file.ts write a file (the simulator's truth file aside)", () => {
    const SRC = fileURLToPath(new URL("../../src", import.meta.url));
    const files = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(d, e.name)) : [join(d, e.name)],
      );
    const writers = files(SRC)
      .filter((f) =>
        /\bwriteFileSync\b|\bwriteFile\b|\bcreateWriteStream\b|\brenameSync\b|\bappendFile(Sync)?\b|\bopenSync\(|\bwriteSync\b|fs\/promises/.test(
          readFileSync(f, "utf8"),
        ),
      )
      .map((f) => relative(SRC, f))
      .sort();
    expect(writers).toEqual([
      // `tail --output-file`: appended to, flushed and cut back, the one way a file is appended to.
      "config/append-file.ts",
      "config/atomic-file.ts",
      // Opens the file read-only (O_RDONLY|O_NONBLOCK), the one way to read one.
      "config/named-file.ts",
      // `sim --truth-file`: a stream of every line generated, for the exactly-once checks.
      "sim/traffic/debug-logs.ts",
    ]);
  });
});

/**
 * The one way to read a file a person names (src/config/named-file.ts): every kind of file that
 * is not a regular one refused on the open descriptor, in one line, without blocking; a cap per
 * kind; and nothing else in src/ reads a file.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  NamedFileError,
  READ_LIMITS,
  readNamedFile,
  readNamedFileIfExists,
} from "../../src/config/named-file.js";

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-named-"));
const at = (name: string) => join(dir, name);

writeFileSync(at("plain.json"), '{"a":1}\n', { mode: 0o640 });
symlinkSync(at("plain.json"), at("link.json"));
execFileSync("mkfifo", [at("fifo")]);
mkdirSync(at("dir"));
symlinkSync(at("loop-b"), at("loop-a"));
symlinkSync(at("loop-a"), at("loop-b"));
symlinkSync("/dev/zero", at("zero-link"));

function failure(path: string, maxBytes = READ_LIMITS.config): NamedFileError {
  try {
    readNamedFile(path, "config file", maxBytes, { directoryHint: "name the file inside it" });
  } catch (err) {
    expect(err).toBeInstanceOf(NamedFileError);
    expect((err as Error).message).not.toMatch(/\n/);
    return err as NamedFileError;
  }
  throw new Error(`${path} was read`);
}

describe("readNamedFile", () => {
  it("reads a regular file, and one a symlink points at, with its mode", () => {
    expect(readNamedFile(at("plain.json"), "config file", 100)).toEqual({
      text: '{"a":1}\n',
      mode: 0o640,
    });
    expect(readNamedFile(at("link.json"), "config file", 100).text).toBe('{"a":1}\n');
  });

  it("refuses a FIFO at once (no writer: the open does not wait for one)", () => {
    const started = performance.now();
    expect(failure(at("fifo")).message).toBe(
      `config file ${at("fifo")} is a FIFO, not a regular file`,
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("refuses a device, named or behind a symlink, before reading a byte of it", () => {
    expect(failure("/dev/zero").message).toBe(
      "config file /dev/zero is a character device, not a regular file",
    );
    expect(failure(at("zero-link")).message).toBe(
      `config file ${at("zero-link")} is a character device, not a regular file`,
    );
  });

  it("refuses a directory with the caller's hint, and names a symlink loop", () => {
    expect(failure(at("dir")).message).toBe(
      `config file ${at("dir")} is a directory, not a regular file; name the file inside it`,
    );
    expect(failure(at("loop-a")).message).toBe(
      `config file ${at("loop-a")} is a symlink loop (too many levels of symbolic links)`,
    );
  });

  it("says what is missing or not readable", () => {
    expect(failure(at("absent")).message).toBe(`config file ${at("absent")} does not exist`);
    expect(failure(join(at("plain.json"), "x")).message).toBe(
      `cannot read config file ${join(at("plain.json"), "x")}: a part of its path is a file, not a directory`,
    );
    expect(readNamedFileIfExists(at("absent"), "config file", 100)).toBeUndefined();
    expect(() => readNamedFileIfExists(at("fifo"), "config file", 100)).toThrow(/a FIFO/);
    if (process.getuid?.() !== 0) {
      const locked = at("locked");
      writeFileSync(locked, "x", { mode: 0o000 });
      chmodSync(locked, 0o000);
      expect(failure(locked).message).toBe(`cannot read config file ${locked}: permission denied`);
    }
  });

  it("reads up to the cap: a larger file is refused by its size, without reading it", () => {
    const big = at("big.json");
    writeFileSync(big, "");
    truncateSync(big, 3 * 1024 * 1024 * 1024);
    expect(failure(big).message).toBe(
      `config file ${big} is 3 GiB, more than the 1 MiB tvcwatch reads of one`,
    );
    const exact = at("exact.json");
    writeFileSync(exact, "x".repeat(100));
    expect(readNamedFile(exact, "config file", 100).text).toHaveLength(100);
    expect(failure(exact, 99).failure).toBe("too-large");
  });

  it("caps each kind", () => {
    expect(READ_LIMITS).toEqual({
      config: 1024 ** 2,
      key: 64 * 1024,
      checkpoint: 64 * 1024 ** 2,
      body: 16 * 1024 ** 2,
      state: 256 * 1024 ** 2,
    });
  });
});

describe("the seam, by construction", () => {
  it("only src/config/named-file.ts reads a file", () => {
    const SRC = fileURLToPath(new URL("../../src", import.meta.url));
    const files = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(d, e.name)) : [join(d, e.name)],
      );
    const readers = files(SRC)
      .filter((f) =>
        /\breadFileSync\b|\breadFile\b|\bcreateReadStream\b|\breadSync\b|\bopendir\b/.test(
          readFileSync(f, "utf8"),
        ),
      )
      .map((f) => relative(SRC, f));
    expect(readers).toEqual(["config/named-file.ts"]);
  });
});

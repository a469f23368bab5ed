/**
 * The one way to append to a file a person names (src/config/append-file.ts): created 0644 when
 * nothing has the name, appended to as it is otherwise (through a symlink too), cut back and
 * flushed; and every kind of file that is not a regular one refused on the open (a FIFO with no
 * reader at once, without blocking) or on the open descriptor, in one line.
 */
import { execFileSync } from "node:child_process";
import {
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AppendFile, AppendFileError } from "../../src/config/append-file.js";

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-append-"));
const at = (name: string) => join(dir, name);

execFileSync("mkfifo", [at("fifo")]);
mkdirSync(at("dir"));
symlinkSync(at("loop-b"), at("loop-a"));
symlinkSync(at("loop-a"), at("loop-b"));
symlinkSync("/dev/null", at("null-link"));

function refusal(path: string): AppendFileError {
  try {
    AppendFile.open(path, "--output-file").close();
  } catch (err) {
    if (err instanceof AppendFileError) return err;
    throw err;
  }
  throw new Error(`${path} was opened`);
}

describe("AppendFile", () => {
  it("creates a file that is not there, mode 0644 less the umask, and says it did", () => {
    const file = AppendFile.open(at("new.log"), "--output-file");
    expect(file.created).toBe(true);
    file.append(Buffer.from("one\n"), true);
    file.close();
    const mode = statSync(at("new.log")).mode & 0o777;
    expect(mode).toBe(0o644 & ~process.umask());
    const again = AppendFile.open(at("new.log"), "--output-file");
    expect(again.created).toBe(false);
    again.append(Buffer.from("two\n"), false);
    again.close();
    expect(readFileSync(at("new.log"), "utf8")).toBe("one\ntwo\n");
  });

  it("appends at the end whatever was written meanwhile, and cuts back to a length", () => {
    writeFileSync(at("shared.log"), "a\n");
    const file = AppendFile.open(at("shared.log"), "--output-file");
    writeFileSync(at("shared.log"), "a\nb\n", { flag: "a" });
    file.append(Buffer.from("c\n"), true);
    expect(readFileSync(at("shared.log"), "utf8")).toBe("a\na\nb\nc\n");
    expect(file.stat().size).toBe(8n);
    file.truncate(2);
    file.append(Buffer.from("d\n"), true);
    expect(readFileSync(at("shared.log"), "utf8")).toBe("a\nd\n");
    file.close();
  });

  it("appends through a symlink to a regular file, to the file", () => {
    writeFileSync(at("target.log"), "");
    symlinkSync(at("target.log"), at("link.log"));
    const file = AppendFile.open(at("link.log"), "--output-file");
    file.append(Buffer.from("x\n"), true);
    expect(file.stat().ino).toBe(statSync(at("target.log"), { bigint: true }).ino);
    file.close();
    expect(readFileSync(at("target.log"), "utf8")).toBe("x\n");
  });

  it("refuses a FIFO no process reads at once, without waiting for a reader", () => {
    const started = Date.now();
    const err = refusal(at("fifo"));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(err.message).toBe(
      `--output-file ${at("fifo")} is a FIFO no process reads, not a regular file`,
    );
    expect(err.notRegular).toBe(true);
  });

  it("refuses a FIFO that a process reads, on the open descriptor", () => {
    const reader = openSync(at("fifo"), constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      expect(refusal(at("fifo")).message).toBe(
        `--output-file ${at("fifo")} is a FIFO, not a regular file`,
      );
    } finally {
      closeSync(reader);
    }
  });

  it("refuses a device, a directory and a symlink loop, naming what they are", () => {
    expect(refusal("/dev/null").message).toBe(
      "--output-file /dev/null is a character device, not a regular file",
    );
    expect(refusal(at("null-link")).message).toBe(
      `--output-file ${at("null-link")} is a character device, not a regular file`,
    );
    expect(refusal(at("dir")).message).toBe(
      `--output-file ${at("dir")} is a directory, not a regular file`,
    );
    expect(refusal(at("loop-a")).message).toBe(
      `--output-file ${at("loop-a")} is a symlink loop (too many levels of symbolic links)`,
    );
    for (const p of ["/dev/null", at("dir"), at("loop-a")])
      expect(refusal(p).notRegular).toBe(true);
  });

  it("says why it cannot open a file it may not write, or in a directory that is not there", () => {
    const missing = refusal(at("no-such-dir/x.log"));
    expect(missing.message).toBe(
      `cannot open --output-file ${at("no-such-dir/x.log")}: its directory does not exist`,
    );
    expect(missing.notRegular).toBe(false);
  });
});

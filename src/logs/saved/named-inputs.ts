/**
 * The names given to `tvcwatch open`, each checked and opened before anything is read: a regular
 * file or a FIFO through the one way a named file is opened (src/config/named-file.ts), `-` as
 * standard input (a regular file redirected in, or a pipe or socket to follow; a terminal is
 * refused). The first that cannot be read is said in one line, and every descriptor opened so far
 * is closed. A file named again (another path to it, a symlink, standard input redirected from it:
 * the same device and inode) is read once: its other names are kept beside it, to be said.
 */
import { closeSync, fstatSync } from "node:fs";
import type { Readable } from "node:stream";
import { fileKind, openNamedLog } from "../../config/named-file.js";

/** What the person is told to use when standard input is a terminal. */
export const STDIN_ADVICE =
  "pipe lines into it (tvcwatch tail -f -o json | tvcwatch open -) or name files";

/** The most files opened at once. */
export const MAX_FILES = 256;

export interface Opened {
  name: string;
  /** The path named (undefined for standard input): what `--follow` follows by name. */
  path: string | undefined;
  fd: number;
  kind: "file" | "stream";
  /** The stream to read, for standard input that is no regular file. */
  stream?: Readable;
  ownsFd: boolean;
  /** The other names given for the same file (device and inode), in the order given. */
  aliases: string[];
  dev: number;
  ino: number;
}

/** Checks and opens every name, or throws one line about the first that cannot be read. */
export function openAll(
  paths: readonly string[],
  stdinGiven: { fd: number; stream: Readable } | undefined,
): Opened[] {
  const opened: Opened[] = [];
  const fail = (err: unknown): never => {
    for (const o of opened) if (o.ownsFd) closeSync(o.fd);
    throw err;
  };
  if (paths.length > MAX_FILES)
    fail(new Error(`${paths.length} files named: tvcwatch reads at most ${MAX_FILES} at once`));
  if (paths.filter((p) => p === "-").length > 1)
    fail(new Error("- (standard input) is named twice"));
  /** Whether the file of `stat` is opened already: then `name` is kept as another of its names. */
  const named = (stat: { dev: number; ino: number }, name: string): boolean => {
    // An inode number of 0 names no file (some file systems give every one that).
    const first =
      stat.ino === 0 ? undefined : opened.find((o) => o.dev === stat.dev && o.ino === stat.ino);
    if (first) first.aliases.push(name);
    return first !== undefined;
  };
  for (const path of paths) {
    if (path === "-") {
      const stdin = stdinGiven ?? { fd: 0, stream: process.stdin };
      let stat: ReturnType<typeof fstatSync>;
      try {
        stat = fstatSync(stdin.fd);
      } catch {
        fail(new Error(`standard input is closed: ${STDIN_ADVICE}`));
        continue;
      }
      if ((stdin.stream as { isTTY?: boolean }).isTTY) {
        fail(new Error(`standard input is a terminal: ${STDIN_ADVICE}`));
      }
      if (stat.isFile() || stat.isFIFO() || stat.isSocket()) {
        if (named(stat, "standard input")) continue;
        const file = stat.isFile();
        opened.push({
          name: "standard input",
          path: undefined,
          fd: stdin.fd,
          kind: file ? "file" : "stream",
          ...(file ? {} : { stream: stdin.stream }),
          ownsFd: false,
          aliases: [],
          dev: stat.dev,
          ino: stat.ino,
        });
      } else {
        fail(
          new Error(
            `standard input is ${fileKind(stat)}, not a regular file or a pipe: ${STDIN_ADVICE}`,
          ),
        );
      }
      continue;
    }
    try {
      const log = openNamedLog(path, "log file", { fifo: true });
      if (named(log.stat, path)) {
        closeSync(log.fd);
        continue;
      }
      opened.push({
        name: path,
        path,
        fd: log.fd,
        kind: log.kind === "file" ? "file" : "stream",
        ownsFd: true,
        aliases: [],
        dev: log.stat.dev,
        ino: log.stat.ino,
      });
    } catch (err) {
      fail(err);
    }
  }
  return opened;
}

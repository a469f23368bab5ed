/** Files a person named (a config file, key files): read with one-line errors saying why not. */
import { readFileSync, statSync } from "node:fs";
import { fileProblem } from "./file-problem.js";

/** Throws a one-line Error unless `path` is a regular file (not a directory or a device). */
export function assertRegularFile(path: string, what: string): void {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch (err) {
    throw new Error(`cannot read ${what} ${path}: ${fileProblem(err as NodeJS.ErrnoException)}`);
  }
  if (stat.isDirectory()) throw new Error(`${what} ${path} is a directory, not a file`);
  if (!stat.isFile()) throw new Error(`${what} ${path} is not a regular file`);
}

/** Reads a text file a person named, or throws one line saying why it cannot be read. */
export function readTextFile(path: string, what: string): string {
  assertRegularFile(path, what);
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(`cannot read ${what} ${path}: ${fileProblem(err as NodeJS.ErrnoException)}`);
  }
}

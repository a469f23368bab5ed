/**
 * Where a path a person named leads, for telling two names of one file apart: the same file
 * named twice (a symlink, `./x` and `x`, a hard link) and the one name two processes share.
 *
 * A file replaced by rename (a checkpoint, ./atomic-file.ts) is its name in its directory: a
 * symlink at that name is replaced, not followed, so only the directory is resolved
 * (`resolvedName`). A file appended to (./append-file.ts) is what the name leads to: symlinks
 * are followed (`resolvedFile`). Neither needs the file to exist.
 */
import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** The absolute path of `path`'s directory with every symlink resolved, and its own name. */
export function resolvedName(path: string): string {
  const absolute = resolve(path);
  try {
    return join(realpathSync(dirname(absolute)), basename(absolute));
  } catch {
    // No such directory (yet): the write names that problem.
    return absolute;
  }
}

/** Symlinks followed at most (as Linux's own limit). */
const MAX_LINKS = 40;

/**
 * The absolute path `path` leads to, symlinks followed: where nothing is there yet, the name a
 * file made through it would have (a dangling symlink's target, resolved).
 */
export function resolvedFile(path: string): string {
  let at = resolve(path);
  for (let links = 0; links < MAX_LINKS; links++) {
    try {
      return realpathSync(at);
    } catch {
      // Not there (yet), or a symlink that leads nowhere: followed by hand.
    }
    try {
      if (!lstatSync(at).isSymbolicLink()) break;
      at = resolve(dirname(at), readlinkSync(at));
    } catch {
      break;
    }
  }
  return resolvedName(at);
}

/** Whether `a` and `b` are one file: the same path once resolved, or the same device and inode. */
export function sameFile(a: string, b: string): boolean {
  const paths = (p: string) => new Set([resolvedName(p), resolvedFile(p)]);
  const pa = paths(a);
  for (const p of paths(b)) if (pa.has(p)) return true;
  try {
    const sa = statSync(a, { bigint: true });
    const sb = statSync(b, { bigint: true });
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false;
  }
}

/**
 * A regular file followed (`open --follow`) as `tail -F` follows it: by its name. Each look reads
 * what was added; a file changed in place (shorter than what was read, or its bytes before that
 * point rewritten, on the same inode) is said, its lines let go (their bytes are gone) and the
 * file read again from its start; a name that now names another file (rotated: renamed away and
 * a new one made) has the old file read to its end, then the new one from its start, through the
 * one way a named file is opened (src/config/named-file.ts). A name gone (removed, renamed with
 * no new file yet) is said once and watched. Standard input redirected from a file has no name:
 * only a change in place is looked for.
 */
import { type NamedLog, namedFileIdentity, openNamedLog } from "../../config/named-file.js";
import { FileBytes } from "./byte-source.js";
import type { SavedFile } from "./saved-file.js";

export interface FollowedFilePorts {
  /**
   * Starts reading the file that comes next by the name (indexed from its start in pieces);
   * `fd`, when given, is its own descriptor, to be closed with the rest. Resolves once indexed.
   */
  adopt(file: SavedFile, fd: number | undefined): Promise<void>;
}

export class FollowedFile {
  private busy = false;
  /** What was said last about the name (said again only once it changes). */
  private said: string | undefined;

  constructor(
    private file: SavedFile,
    /** The name followed; undefined for standard input. */
    private readonly path: string | undefined,
    /** The device and inode read now. */
    private id: { dev: number; ino: number },
    private readonly ports: FollowedFilePorts,
  ) {}

  /** One look: what was added, a change in place, a new file by the name. */
  poll(): void {
    if (this.busy) return;
    const file = this.file;
    const change = file.changedInPlace();
    if (change) {
      file.forget(change);
      const fd = (file.source as FileBytes).fd;
      const next = file.successor(
        new FileBytes(fd, 0),
        `read again from its start after it was ${change === "truncated" ? "truncated" : "rewritten"}`,
      );
      (next.source as FileBytes).refresh();
      this.start(next, undefined);
      return;
    }
    file.readMore();
    if (this.path === undefined) return;
    let now: { dev: number; ino: number } | undefined;
    try {
      now = namedFileIdentity(this.path, "log file");
    } catch (err) {
      this.say((err as Error).message);
      return;
    }
    if (now === undefined) {
      this.say(
        `${this.path} is gone (removed, or renamed away): its lines stay, and its name is watched for a new file`,
      );
      return;
    }
    if (now.dev === this.id.dev && now.ino === this.id.ino) {
      this.said = undefined;
      return;
    }
    let log: NamedLog;
    try {
      log = openNamedLog(this.path, "log file", { fifo: false });
    } catch (err) {
      this.say(`${(err as Error).message}: still watching its name`);
      return;
    }
    file.endReplaced();
    file.notes.push(
      `${this.path} was replaced (a new file has its name): the new one is read from its start`,
    );
    this.said = undefined;
    this.id = { dev: log.stat.dev, ino: log.stat.ino };
    this.start(
      file.successor(new FileBytes(log.fd, log.stat.size), "the new file by that name"),
      log.fd,
    );
  }

  private start(next: SavedFile, fd: number | undefined): void {
    this.file = next;
    this.busy = true;
    void this.ports.adopt(next, fd).finally(() => {
      this.busy = false;
    });
  }

  /** Said once, on the file read now, until something else is to be said. */
  private say(note: string): void {
    if (this.said === note) return;
    this.said = note;
    this.file.notes.push(note);
  }
}

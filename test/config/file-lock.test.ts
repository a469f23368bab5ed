/**
 * One writer per file (src/config/file-lock.ts): a lock taken is refused to the next taker,
 * naming the holder's PID; one whose holder is gone (a dead PID, or a PID given to another
 * process since) is taken over; one of another host, or no lock of ours, is refused naming the
 * fix; released, it is gone.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileLock, FileLockError, lockPathOf } from "../../src/config/file-lock.js";
import { resolvedFile, resolvedName, sameFile } from "../../src/config/resolved-path.js";
import { waitFor } from "../helpers/wait-for.js";

const taken: FileLock[] = [];
const take = (path: string) => {
  const lock = FileLock.take(path, `checkpoint ${path}`);
  taken.push(lock);
  return lock;
};
afterEach(() => {
  for (const l of taken.splice(0)) l.release();
});

const dirOf = () => mkdtempSync(join(tmpdir(), "tvcwatch-lock-"));

/** A PID no process has: that of a process that ran and exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(String(child.stdout));
}

/** Linux's record of a running process: its boot and start time, as a lock keeps them. */
function identityOf(pid: number): { boot: string; start: string } {
  const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return { boot, start: stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] as string };
}

const plant = (path: string, holder: object) =>
  writeFileSync(lockPathOf(path), `${JSON.stringify(holder)}\n`);

describe("FileLock", () => {
  it("refuses a second taker, naming the holder's PID, and is free once released", () => {
    const path = join(dirOf(), "dep.checkpoint");
    const lock = take(path);
    expect(lock.held()).toBe(true);
    const held = JSON.parse(readFileSync(lockPathOf(path), "utf8"));
    expect(held).toMatchObject({ pid: process.pid, host: hostname(), ...identityOf(process.pid) });
    let refused: unknown;
    try {
      FileLock.take(path, `checkpoint ${path}`);
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(FileLockError);
    expect((refused as FileLockError).message).toMatch(
      new RegExp(
        `^checkpoint \\S+ is in use by tvcwatch PID ${process.pid} \\(since \\d{4}-\\S+Z\\): stop it first, or name another file$`,
      ),
    );
    expect((refused as FileLockError).holder?.pid).toBe(process.pid);
    lock.release();
    expect(existsSync(lockPathOf(path))).toBe(false);
    expect(take(path).held()).toBe(true);
  });

  it("takes over a lock whose holder is gone: a dead PID, a zombie, or a PID another process was given since", async () => {
    const dir = dirOf();
    const dead = join(dir, "dead.checkpoint");
    plant(dead, { pid: deadPid(), host: hostname(), since: new Date().toISOString() });
    expect(take(dead).held()).toBe(true);
    expect(JSON.parse(readFileSync(lockPathOf(dead), "utf8")).pid).toBe(process.pid);
    // The parent process runs, but it is not the process that took this lock (another start).
    const reused = join(dir, "reused.checkpoint");
    const parent = identityOf(process.ppid);
    plant(reused, {
      pid: process.ppid,
      host: hostname(),
      since: new Date().toISOString(),
      boot: parent.boot,
      start: String(Number(parent.start) + 1),
    });
    expect(take(reused).held()).toBe(true);
    // The very process that took it runs: held.
    const live = join(dir, "live.checkpoint");
    plant(live, {
      pid: process.ppid,
      host: hostname(),
      since: new Date().toISOString(),
      ...parent,
    });
    expect(() => take(live)).toThrow(new RegExp(`is in use by tvcwatch PID ${process.ppid} `));
    // A zombie has exited; only its parent (here one that never waits) has yet to hear of it.
    // The child exits only once its parent is `sleep`: a shell still running would reap it.
    const child = `until [ "$(cat /proc/$PPID/comm)" = sleep ]; do sleep 0.01; done`;
    const parentOfZombie = spawn("sh", ["-c", `sh -c '${child}' & echo $!; exec sleep 30`]);
    try {
      const zombie = Number(
        await new Promise<string>((r) => parentOfZombie.stdout.once("data", (d) => r(String(d)))),
      );
      await waitFor(
        () => readFileSync(`/proc/${zombie}/stat`, "utf8").includes(") Z "),
        "the child to be a zombie",
      );
      const exited = join(dir, "zombie.checkpoint");
      plant(exited, { pid: zombie, host: hostname(), since: new Date().toISOString() });
      expect(take(exited).held()).toBe(true);
    } finally {
      parentOfZombie.kill("SIGKILL");
    }
    // None of the attempts left a temporary file behind.
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("refuses a lock taken on another host, and a file at the lock's name that is no lock of ours, naming the fix", () => {
    const dir = dirOf();
    const remote = join(dir, "remote.checkpoint");
    plant(remote, { pid: 4242, host: "shipper-2", since: "2026-05-01T10:00:00.000Z" });
    expect(() => take(remote)).toThrow(
      `checkpoint ${remote} is in use by tvcwatch PID 4242 on host shipper-2 (since 2026-05-01T10:00:00.000Z): stop it first, or if it is no longer running there, delete ${remote}.lock`,
    );
    const garbled = join(dir, "garbled.checkpoint");
    writeFileSync(lockPathOf(garbled), "");
    expect(() => take(garbled)).toThrow(
      `checkpoint ${garbled} has a lock ${garbled}.lock that is no tvcwatch lock: if no tvcwatch uses ${garbled}, delete ${garbled}.lock`,
    );
    const linked = join(dir, "linked.checkpoint");
    symlinkSync(join(dir, "elsewhere"), lockPathOf(linked));
    expect(() => take(linked)).toThrow(/that is no tvcwatch lock/);
    expect(existsSync(join(dir, "elsewhere"))).toBe(false);
  });

  it("knows when its lock file was removed or replaced while it was held", () => {
    const path = join(dirOf(), "dep.checkpoint");
    const lock = take(path);
    rmSync(lockPathOf(path));
    expect(lock.held()).toBe(false);
    const other = take(path);
    expect(lock.held()).toBe(false);
    // Releasing the lost one leaves the other's lock alone.
    lock.release();
    expect(other.held()).toBe(true);
  });
});

describe("resolved paths", () => {
  it("tell one file under two names: a symlink, a relative path, a hard link; and a checkpoint's name from where a symlink there leads", () => {
    const dir = dirOf();
    const file = join(dir, "out.ndjson");
    writeFileSync(file, "");
    symlinkSync(file, join(dir, "link"));
    expect(sameFile(join(dir, "link"), file)).toBe(true);
    expect(sameFile(join(dir, ".", "out.ndjson"), file)).toBe(true);
    expect(sameFile(join(dir, "missing"), join(dir, "missing"))).toBe(true);
    expect(sameFile(join(dir, "missing"), file)).toBe(false);
    // A dangling symlink names the file it would make.
    symlinkSync("later.ndjson", join(dir, "dangling"));
    expect(sameFile(join(dir, "dangling"), join(dir, "later.ndjson"))).toBe(true);
    expect(resolvedFile(join(dir, "link"))).toBe(resolvedFile(file));
    expect(resolvedName(join(dir, "link"))).not.toBe(resolvedName(file));
  });
});

/**
 * `tvcwatch sim --state FILE` as a process: killed with SIGKILL while activities are being
 * written, it comes back with every activity it had answered and no temporary files; a change it
 * could not save is neither acknowledged (not even to the client's identical retry) nor kept;
 * bad state files and flags that contradict the file are one-line errors.
 */
import { type ChildProcess, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stampBody } from "../../src/api/stamp.js";
import type { SimConfig } from "../../src/sim/server.js";
import { BIN, runCli } from "../helpers/run-cli.js";
import { waitFor } from "../helpers/wait-for.js";

let children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children) c.kill("SIGKILL");
  children = [];
});

/** Starts `tvcwatch sim` and resolves once it wrote its --write-config file. */
async function startSim(
  args: string[],
): Promise<{ child: ChildProcess; config: SimConfig; configPath: string }> {
  const dir = mkdtempSync(join(tmpdir(), "tvcwatch-sim-proc-"));
  const configPath = join(dir, "sim.json");
  const child = spawn(process.execPath, [
    BIN,
    "sim",
    "--port",
    "0",
    "--write-config",
    configPath,
    ...args,
  ]);
  children.push(child);
  let out = "";
  child.stdout?.on("data", (d) => (out += d));
  child.stderr?.on("data", (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (out.includes("# debug deployment")) {
        clearInterval(check);
        resolve();
      }
    }, 20);
    child.on("exit", () => {
      clearInterval(check);
      reject(new Error(`sim exited: ${out}`));
    });
  });
  return {
    child,
    config: JSON.parse(readFileSync(configPath, "utf8")) as SimConfig,
    configPath,
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.on("exit", r));
  child.kill("SIGTERM");
  await exited;
}

async function post(config: SimConfig, path: string, body: unknown) {
  const text = JSON.stringify(body);
  const res = await fetch(`${config.baseUrl}${path}`, {
    method: "POST",
    body: text,
    headers: {
      "Content-Type": "application/json",
      "X-Stamp": stampBody(text, {
        publicKey: config.apiPublicKey,
        privateKey: config.apiPrivateKey,
      }),
    },
  });
  return (await res.json()) as Record<string, unknown>;
}

describe("tvcwatch sim --state", () => {
  it("keeps every answered activity when killed mid-write", async () => {
    const state = join(mkdtempSync(join(tmpdir(), "tvcwatch-state-")), "org.json");
    const first = await startSim(["--seed", "3", "--state", state]);
    const answered: string[] = [];
    let n = 0;
    const submitOne = async (): Promise<void> => {
      const name = `tag-${n++}`;
      const r = await post(first.config, "/public/v1/submit/create_user_tag", {
        type: "ACTIVITY_TYPE_CREATE_USER_TAG",
        timestampMs: String(Date.now()),
        organizationId: first.config.organizationId,
        parameters: { userTagName: name, userIds: [] },
      });
      if ((r.activity as { status?: string } | undefined)?.status === "ACTIVITY_STATUS_COMPLETED") {
        answered.push(name);
      }
      return submitOne();
    };
    // Four submitters at once; the kill lands while some are in flight, once over 20 answered.
    const running = Promise.allSettled([submitOne(), submitOne(), submitOne(), submitOne()]);
    await waitFor(() => answered.length > 20, "over 20 answered activities", {
      everyMs: 10,
      detail: () => `${answered.length} answered`,
    });
    first.child.kill("SIGKILL");
    await running;
    expect(answered.length).toBeGreaterThan(20);

    const second = await startSim(["--state", state]);
    const tags = await post(second.config, "/public/v1/query/list_user_tags", {
      organizationId: second.config.organizationId,
    });
    const names = (tags.userTags as { tagName: string }[]).map((t) => t.tagName);
    for (const name of answered) expect(names).toContain(name);
    expect(second.config.organizationId).toBe(first.config.organizationId);
    // Whatever temporary file the kill left behind was cleaned up at the restart.
    expect(readdirSync(dirname(state)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("removes the temporary files a killed run left behind, and only those", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-state-tmp-"));
    const state = join(dir, "org.json");
    // What `kill -9` mid-write leaves: .org.json.<pid>.<random>.tmp of a process that no longer
    // runs (or .org.json.<pid>.tmp, of an earlier version).
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((r) => dead.on("exit", r));
    const stale = join(dir, `.org.json.${dead.pid}.0123456789abcdef.tmp`);
    writeFileSync(stale, "{torn", { mode: 0o600 });
    const legacy = join(dir, `.org.json.${dead.pid}.tmp`);
    writeFileSync(legacy, "{torn", { mode: 0o600 });
    // Another file of the directory, a live process's temp file, and a symlink of the pattern
    // (no file of ours) are not ours to remove.
    const other = join(dir, ".other.json.1.tmp");
    writeFileSync(other, "");
    const live = join(dir, `.org.json.${process.pid}.fedcba9876543210.tmp`);
    writeFileSync(live, "");
    const link = join(dir, `.org.json.${dead.pid}.aaaaaaaaaaaaaaaa.tmp`);
    symlinkSync(other, link);
    const sim = await startSim(["--seed", "6", "--state", state]);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(legacy)).toBe(false);
    expect(existsSync(other)).toBe(true);
    expect(existsSync(live)).toBe(true);
    await stop(sim.child);
    expect(readdirSync(dir).sort()).toEqual(
      [
        `.org.json.${process.pid}.fedcba9876543210.tmp`,
        `.org.json.${dead.pid}.aaaaaaaaaaaaaaaa.tmp`,
        ".other.json.1.tmp",
        "org.json",
      ].sort(),
    );
  });

  it("never acknowledges an activity it could not save, even to the identical retry", {
    timeout: 90_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-state-ro-"));
    const stateDir = join(dir, "state");
    mkdirSync(stateDir);
    const state = join(stateDir, "org.json");
    const sim = await startSim(["--seed", "9", "--state", state]);
    const call = (op: string, body: unknown) =>
      runCli(["--config", sim.configPath, "call", op, "--body", JSON.stringify(body)], {
        timeoutMs: 60_000,
      });
    const tag = (name: string) => ({ userTagName: name, userIds: [] });
    const tagNames = async () => {
      const r = await call("list_user_tags", {});
      expect(r.code).toBe(0);
      return (JSON.parse(r.stdout).userTags as { tagName: string }[]).map((t) => t.tagName);
    };

    // The state file's directory goes away under the running simulator (root can write
    // anywhere, so a read-only mode would not stop it: a file in the directory's place does).
    renameSync(stateDir, `${stateDir}.away`);
    writeFileSync(stateDir, "");
    const failed = await call("create_user_tag", tag("unsaved"));
    // Every attempt, the client's identical retries included, fails the same way.
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe("");
    expect(failed.stderr.trim().split("\n").at(-1)).toMatch(
      /500.*cannot write --state .*org\.json: a part of its path is not a directory; the change was not made/,
    );

    rmSync(stateDir);
    renameSync(`${stateDir}.away`, stateDir);
    // Not made: the organization does not show it, and a new request saves as usual.
    expect(await tagNames()).not.toContain("unsaved");
    expect((await call("create_user_tag", tag("saved"))).code).toBe(0);
    await stop(sim.child);

    const again = await startSim(["--state", state]);
    const listed = await runCli(["--config", again.configPath, "call", "list_user_tags"]);
    const after = (JSON.parse(listed.stdout).userTags as { tagName: string }[]).map(
      (t) => t.tagName,
    );
    expect(after).toContain("saved");
    expect(after).not.toContain("unsaved");
  });

  it("refuses a directory as --state in one line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-state-dir-"));
    const r = await runCli(["sim", "--port", "0", "--state", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `tvcwatch: --state ${dir} is a directory, not a regular file; name a file, e.g. --state ${join(dir, "org.json")}\n`,
    );
  });

  it("names what is wrong with a state file or a flag that contradicts it, in one line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-state-bad-"));
    const broken = join(dir, "broken.json");
    writeFileSync(broken, "{not json", { mode: 0o600 });
    const r = await runCli(["sim", "--port", "0", "--state", broken]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `tvcwatch: --state ${broken} is not valid JSON; it was not written by tvcwatch sim, or was edited by hand\n`,
    );

    const state = join(dir, "org.json");
    const sim = await startSim(["--seed", "4", "--state", state]);
    sim.child.kill("SIGTERM");
    await new Promise((r) => sim.child.on("exit", r));
    chmodSync(state, 0o644);
    const loose = await runCli(["sim", "--port", "0", "--state", state]);
    expect(loose.code).toBe(2);
    expect(loose.stderr).toBe(
      `tvcwatch: --state ${state} is readable by others (mode 0644); run: chmod 600 ${state}\n`,
    );
    chmodSync(state, 0o600);
    const clash = await runCli(["sim", "--port", "0", "--seed", "5", "--state", state]);
    expect(clash.code).toBe(2);
    expect(clash.stderr.trim().split("\n")).toHaveLength(1);
    expect(clash.stderr).toMatch(/holds an organization with --seed 4; drop --seed 5 /);
    const quorum = await runCli(["sim", "--port", "0", "--root-quorum", "1", "--state", state]);
    expect(quorum.code).toBe(2);
    expect(quorum.stderr).toBe(
      `tvcwatch: --state ${state} holds an organization with --root-quorum 2; drop --root-quorum 1 or use another state file\n`,
    );
  });
});

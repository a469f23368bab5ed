/**
 * `tail -f --checkpoint FILE --output-file OUT` killed with SIGKILL at random moments and started
 * again (issue #30): every line of the server's truth is in OUT exactly once. The moments are
 * events, not times: right after the start, as soon as OUT has grown (a batch written, perhaps not
 * yet recorded), or once the checkpoint has been rewritten.
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  linkSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  truncateSync,
  watch,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { startSimulator } from "../../src/sim/server.js";
import { startLogServer } from "../helpers/log-server.js";
import { BIN, runCli } from "../helpers/run-cli.js";
import { mulberry, type Random } from "../helpers/seeded-random.js";

const key = generateKeyPair();
const ENV = {
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-checkpoint",
};

function startTail(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
  child.stdout.resume();
  child.stderr.resume();
  return child;
}

const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : 0);
const mtimeOf = (path: string) => (existsSync(path) ? statSync(path).mtimeMs : 0);

/**
 * Resolves once `holds()` is true, checked whenever a file in `dir` changes (and at once); or
 * when `child` exits, whatever `holds` says.
 */
function until(dir: string, holds: () => boolean, child?: ChildProcessWithoutNullStreams) {
  return new Promise<void>((resolve) => {
    const watcher = watch(dir);
    const done = () => {
      watcher.close();
      child?.off("close", done);
      resolve();
    };
    watcher.on("change", () => {
      if (holds()) done();
    });
    child?.on("close", done);
    if (holds()) done();
  });
}

async function killAt(
  child: ChildProcessWithoutNullStreams,
  moment: "start" | "written" | "recorded",
  out: string,
  checkpoint: string,
  random: Random,
): Promise<void> {
  await new Promise((r) => child.once("spawn", r));
  if (moment !== "start") {
    const target = sizeOf(out) + 1 + Math.floor(random() * 6000);
    await until(dirname(out), () => sizeOf(out) >= target, child);
    if (moment === "recorded") {
      const recorded = mtimeOf(checkpoint);
      await until(dirname(out), () => mtimeOf(checkpoint) !== recorded, child);
    }
  }
  const exited = new Promise((r) => child.once("close", r));
  child.kill("SIGKILL");
  await exited;
}

/** OUT's lines as identities, JSON lines that do not parse (a torn line) counted apart. */
function outputOf(out: string): { ids: string[]; torn: number; events: string[] } {
  const ids: string[] = [];
  const events: string[] = [];
  let torn = 0;
  for (const text of readFileSync(out, "utf8").split("\n")) {
    if (text === "") continue;
    let e: {
      deploymentId?: string;
      replicaLabel?: string;
      ts?: unknown;
      content?: string;
      event?: string;
    };
    try {
      e = JSON.parse(text);
    } catch {
      torn += 1;
      continue;
    }
    if (e.event) events.push(text);
    else ids.push(JSON.stringify([e.deploymentId, e.replicaLabel, e.ts, e.content]));
  }
  return { ids, torn, events };
}

/** Lost (in `want`, fewer in `got`) and duplicated (in `got`, more than the server ever had). */
function compare(got: string[], want: string[], all: string[]) {
  const count = (list: string[]) => {
    const m = new Map<string, number>();
    for (const id of list) m.set(id, (m.get(id) ?? 0) + 1);
    return m;
  };
  const have = count(got);
  const ever = count(all);
  let lost = 0;
  let duplicated = 0;
  for (const [id, n] of count(want)) lost += Math.max(0, n - (have.get(id) ?? 0));
  for (const [id, n] of have) duplicated += Math.max(0, n - (ever.get(id) ?? 0));
  return { lost, duplicated };
}

/**
 * `kills` runs of `args` (with --checkpoint and --output-file), each killed with SIGKILL at a
 * random moment; then one more, ended with Ctrl-C once `caughtUp()` holds.
 */
async function killLoop(o: {
  args: string[];
  env: Record<string, string>;
  out: string;
  checkpoint: string;
  kills: number;
  seed: number;
  caughtUp: () => boolean;
}): Promise<string> {
  const random = mulberry(o.seed);
  const moments = ["start", "written", "written", "recorded"] as const;
  for (let i = 0; i < o.kills; i++) {
    const moment = moments[Math.floor(random() * moments.length)] ?? "written";
    await killAt(startTail(o.args, o.env), moment, o.out, o.checkpoint, random);
  }
  const last = startTail(o.args, o.env);
  let stderr = "";
  last.stderr.on("data", (d) => (stderr += d));
  // It follows (and answers Ctrl-C) once it has recorded a batch.
  const recorded = mtimeOf(o.checkpoint);
  await until(dirname(o.out), () => mtimeOf(o.checkpoint) !== recorded, last);
  await until(dirname(o.out), o.caughtUp, last);
  const exited = new Promise<number | null>((r) => last.once("close", r));
  last.kill("SIGINT");
  expect(await exited).toBe(0);
  return stderr;
}

describe("tail -f --checkpoint --output-file", () => {
  it("killed with SIGKILL 12 times at random moments, has every line of the simulator's truth in the file exactly once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-checkpoint-"));
    const truthFile = join(dir, "truth.ndjson");
    const sim = await startSimulator({
      port: 0,
      seed: 30,
      scenario: "quiet",
      replicas: 3,
      logRate: 60,
      faultRate: 0.05,
      ingestLagMs: 500,
      truthFile,
      log: () => {},
    });
    const config = join(dir, "config.json");
    writeFileSync(config, JSON.stringify(sim.config), { mode: 0o600 });
    const out = join(dir, "out.ndjson");
    const checkpoint = join(dir, "dep.checkpoint");
    const args = [
      "--config",
      config,
      "tail",
      "-f",
      "-o",
      "json",
      "--since",
      "1h",
      "--interval",
      "250ms",
      "--checkpoint",
      checkpoint,
      "--output-file",
      out,
    ];
    const truth = () =>
      readFileSync(truthFile, "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map(
          (l) =>
            JSON.parse(l) as {
              replicaLabel: string;
              ts: { seconds: string } | null;
              content: string;
            },
        );
    const id = (l: { replicaLabel: string; ts: unknown; content: string }) =>
      JSON.stringify([undefined, l.replicaLabel, l.ts, l.content]);
    let upTo = Number.POSITIVE_INFINITY;
    const wanted = () =>
      truth()
        .filter((l) => l.ts !== null && Number(l.ts.seconds) * 1000 < upTo)
        .map(id);
    try {
      await killLoop({
        args,
        env: {},
        out,
        checkpoint,
        kills: 12,
        seed: 30,
        caughtUp: () => {
          if (upTo === Number.POSITIVE_INFINITY) upTo = Date.now() - 2000;
          const have = new Set(outputOf(out).ids);
          return wanted().every((w) => have.has(w));
        },
      });
    } finally {
      await sim.close();
    }
    const { ids, torn } = outputOf(out);
    const all = truth();
    const want = wanted();
    expect(want.length).toBeGreaterThan(500);
    expect({ torn, ...compare(ids, want, all.map(id)) }).toEqual({
      torn: 0,
      lost: 0,
      duplicated: 0,
    });
    expect(statSync(checkpoint).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(checkpoint, "utf8")).format).toBe(3);
  }, 60_000);

  it("over several deployments, killed 10 times, has every deployment's lines in the file exactly once", async () => {
    const server = await startLogServer({
      replicas: 2,
      rate: 30,
      lagMs: (r) => (r === 1 ? 1000 : 0),
      lagFrom: 1500,
    });
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-checkpoint-"));
    const out = join(dir, "many.ndjson");
    const checkpoint = join(dir, "many.checkpoint");
    const deployments = ["dep-a", "dep-b"];
    const args = [
      "--base-url",
      server.url,
      "tail",
      ...deployments.flatMap((d) => ["--deployment", d]),
      "-f",
      "-o",
      "json",
      "--since",
      "1h",
      "--interval",
      "250ms",
      "--checkpoint",
      checkpoint,
      "--output-file",
      out,
    ];
    const tsOf = (t: number) => {
      const seconds = Math.floor(t / 1000);
      return { seconds: String(seconds), nanos: String(Math.round((t - seconds * 1000) * 1e6)) };
    };
    // The server sends each deployment the same stream: every line once per deployment.
    const idsOf = (lines: ReturnType<typeof server.truth>) =>
      lines.flatMap((l) =>
        deployments.map((d) => JSON.stringify([d, l.replicaLabel, tsOf(l.t), l.content])),
      );
    let upTo = Number.POSITIVE_INFINITY;
    try {
      await killLoop({
        args,
        env: ENV,
        out,
        checkpoint,
        kills: 10,
        seed: 7,
        caughtUp: () => {
          if (upTo === Number.POSITIVE_INFINITY) upTo = server.now() - 3000;
          const have = new Set(outputOf(out).ids);
          return idsOf(server.truth(upTo)).every((w) => have.has(w));
        },
      });
    } finally {
      await server.close();
    }
    const { ids, torn } = outputOf(out);
    const want = idsOf(server.truth(upTo));
    expect(want.length).toBeGreaterThan(150);
    expect({ torn, ...compare(ids, want, idsOf(server.truth())) }).toEqual({
      torn: 0,
      lost: 0,
      duplicated: 0,
    });
    const file = JSON.parse(readFileSync(checkpoint, "utf8")) as {
      format: number;
      deployments: { deploymentId: string }[];
    };
    expect(file.format).toBe(3);
    expect(file.deployments.map((d) => d.deploymentId).sort()).toEqual(deployments);
    // That file names two deployments: following only one of them with it is refused.
    const one = await runCli(
      [
        "--base-url",
        "http://127.0.0.1:9",
        "tail",
        "--deployment",
        "dep-a",
        "--checkpoint",
        checkpoint,
      ],
      { env: ENV },
    );
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/was written for 2 deployments \(dep-a, dep-b\): follow them all/);
  }, 60_000);

  it("never cuts an output file that was rotated or is shorter than recorded: starts anew, says so, and marks a gap when lines may be missing", async () => {
    const server = await startLogServer({ replicas: 1, rate: 20 });
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-checkpoint-"));
    const out = join(dir, "out.ndjson");
    const checkpoint = join(dir, "dep.checkpoint");
    const once = (extra: string[] = []) =>
      runCli(
        [
          "--base-url",
          server.url,
          "tail",
          "--deployment",
          "dep",
          "-o",
          "json",
          "--since",
          "1h",
          "--checkpoint",
          checkpoint,
          "--output-file",
          out,
          ...extra,
        ],
        { env: ENV },
      );
    // Lines of the last 10 s, so that each run has some new ones to write.
    let n = 0;
    const more = () => {
      for (let i = 0; i < 20; i++, n++)
        server.add({
          replicaLabel: "replica 1/1",
          t: server.now() - 10_000 + i * 10,
          hasTs: true,
          content: `added ${n}`,
        });
    };
    try {
      more();
      const first = await once();
      expect(first.code).toBe(0);
      const written = readFileSync(out, "utf8");
      expect(written.split("\n").length).toBeGreaterThan(10);
      // Rotated: the old file moved away; the next run appends to a new one and says so.
      renameSync(out, `${out}.1`);
      writeFileSync(out, "");
      more();
      const rotated = await once();
      expect(rotated.code).toBe(0);
      expect(rotated.stderr).toMatch(
        /output file \S+ is another file than the checkpoint recorded \(rotated\?\)/,
      );
      expect(readFileSync(`${out}.1`, "utf8")).toBe(written);
      // Cut by another program: never cut further, a gap marker first.
      const before = readFileSync(out, "utf8");
      truncateSync(out, 10);
      more();
      const cut = await once();
      expect(cut.code).toBe(0);
      expect(cut.stderr).toMatch(/holds 10 bytes, less than the \d+ recorded: something cut it/);
      const after = readFileSync(out, "utf8");
      expect(after.slice(0, 10)).toBe(before.slice(0, 10));
      expect(after.slice(10).split("\n")[0]).toMatch(
        /^\{"event":"gap",.*"reason":"output file .* holds 10 bytes/,
      );
      // Text in a file is never coloured, whatever FORCE_COLOR says.
      more();
      const text = join(dir, "out.txt");
      const coloured = await runCli(
        [
          "--base-url",
          server.url,
          "tail",
          "--deployment",
          "dep",
          "--since",
          "1h",
          "--output-file",
          text,
        ],
        { env: { ...ENV, FORCE_COLOR: "1" } },
      );
      expect(coloured.code).toBe(0);
      expect(readFileSync(text, "utf8")).toMatch(/^\[replica 1\/1\] /);
      expect(readFileSync(text, "utf8")).not.toContain("\u001b");
      // -o otlp writes no file.
      const otlp = await once(["-o", "otlp"]);
      expect(otlp.code).toBe(2);
      expect(otlp.stderr.trim()).toBe(
        "tvcwatch: --output-file takes the lines of -o text or -o json; with -o otlp they go to the collector: leave one of them out",
      );
      // Anything but a regular file is refused at once, in one line, whatever it is: a FIFO no
      // process reads (the open does not wait for one), a device, a directory, a symlink loop.
      const fifo = join(dir, "fifo");
      execFileSync("mkfifo", [fifo]);
      symlinkSync(join(dir, "loop-b"), join(dir, "loop-a"));
      symlinkSync(join(dir, "loop-a"), join(dir, "loop-b"));
      const refusals: [string, string][] = [
        [dir, "is a directory, not a regular file"],
        [fifo, "is a FIFO no process reads, not a regular file"],
        ["/dev/null", "is a character device, not a regular file"],
        [join(dir, "loop-a"), "is a symlink loop (too many levels of symbolic links)"],
      ];
      // Each refusal is its own run, independent of the others: run at once.
      const answers = await Promise.all(
        refusals.map(([path]) =>
          runCli(
            ["--base-url", server.url, "tail", "-f", "--deployment", "dep", "--output-file", path],
            { env: ENV },
          ),
        ),
      );
      for (const [k, [path, is]] of refusals.entries()) {
        const refused = answers[k] as (typeof answers)[number];
        expect(refused.code).toBe(2);
        expect(refused.stderr.trim()).toBe(
          `tvcwatch: --output-file ${path} ${is}: name a file to append the lines to`,
        );
      }
    } finally {
      await server.close();
    }
  }, 30_000);

  it("refuses a checkpoint of another deployment, a corrupt one, or a newer format, saying what to do", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-checkpoint-"));
    const server = await startLogServer({ replicas: 1, rate: 5 });
    const run = async (text: string) => {
      const file = join(dir, `c${Math.random()}`);
      writeFileSync(file, text);
      return runCli(
        ["--base-url", server.url, "tail", "--deployment", "dep", "--checkpoint", file],
        { env: ENV },
      );
    };
    try {
      const other = await run(
        JSON.stringify({ format: 1, deploymentId: "other", newest: 0, lines: [] }),
      );
      expect(other.code).toBe(2);
      expect(other.stderr.trim()).toMatch(
        /^tvcwatch: checkpoint \S+ was written for deployment other, not dep: name another file for this one$/,
      );
      const corrupt = await run("{not json");
      expect(corrupt.code).toBe(2);
      expect(corrupt.stderr.trim().split("\n")).toHaveLength(1);
      expect(corrupt.stderr).toMatch(
        /is not a tvcwatch checkpoint \(not JSON\): pass --start-over to set it aside/,
      );
      const newer = await run(JSON.stringify({ format: 4 }));
      expect(newer.stderr).toMatch(
        /has format 4, newer than this tvcwatch reads \(3\): upgrade tvcwatch/,
      );
      const fresh = await runCli(
        ["--base-url", server.url, "tail", "--deployment", "dep", "--checkpoint", join(dir, "new")],
        { env: ENV },
      );
      expect(fresh.code).toBe(0);
      expect(statSync(join(dir, "new")).mode & 0o777).toBe(0o600);
    } finally {
      await server.close();
    }
  }, 30_000);

  it("lets one follow at a time write a checkpoint and an output file: a second exits 2 naming the first's PID; a killed one's lock is taken over", async () => {
    const server = await startLogServer({ replicas: 2, rate: 20, historyMs: 2000 });
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-checkpoint-"));
    const out = join(dir, "out.ndjson");
    const checkpoint = join(dir, "dep.checkpoint");
    const flags = (cp: string, file: string) => [
      "--base-url",
      server.url,
      "tail",
      "--deployment",
      "dep",
      "-o",
      "json",
      "--interval",
      "250ms",
      "--checkpoint",
      cp,
      "--output-file",
      file,
    ];
    const first = startTail([...flags(checkpoint, out), "-f"], ENV);
    try {
      await until(dir, () => existsSync(checkpoint) && sizeOf(out) > 0, first);
      const second = await runCli([...flags(checkpoint, join(dir, "other.ndjson")), "-f"], {
        env: ENV,
      });
      expect(second.code).toBe(2);
      expect(second.stderr.trim()).toMatch(
        new RegExp(
          `^tvcwatch: checkpoint \\S+ is in use by tvcwatch PID ${first.pid} \\(since [^)]+\\): stop it first, or name another file$`,
        ),
      );
      const third = await runCli([...flags(join(dir, "other.checkpoint"), out), "-f"], {
        env: ENV,
      });
      expect(third.code).toBe(2);
      expect(third.stderr.trim()).toMatch(
        new RegExp(`^tvcwatch: --output-file \\S+ is in use by tvcwatch PID ${first.pid} `),
      );
      // Neither wrote anything.
      expect(existsSync(join(dir, "other.ndjson"))).toBe(false);
      expect(existsSync(join(dir, "other.checkpoint"))).toBe(false);
      // Killed with SIGKILL, it leaves its locks: the next follow finds their holder gone.
      const exited = new Promise((r) => first.once("close", r));
      first.kill("SIGKILL");
      await exited;
      expect(existsSync(`${checkpoint}.lock`)).toBe(true);
      const after = await runCli(flags(checkpoint, out), { env: ENV });
      expect(after.stderr).toBe("");
      expect(after.code).toBe(0);
      // Ended, a follow leaves no lock behind.
      expect(readdirSync(dir).filter((n) => n.includes(".lock"))).toEqual([]);
    } finally {
      first.kill("SIGKILL");
      await server.close();
    }
  }, 30_000);

  it("refuses --checkpoint and --output-file naming one file, by any name: the same path, a symlink, a hard link", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-checkpoint-"));
    const file = join(dir, "x");
    writeFileSync(file, '{"kept":true}\n');
    symlinkSync(file, join(dir, "link"));
    linkSync(file, join(dir, "hard"));
    for (const [checkpoint, out] of [
      [file, file],
      [join(dir, "link"), file],
      [file, join(dir, "link")],
      [join(dir, "hard"), join(dir, ".", "x")],
      [join(dir, "new"), join(dir, "new")],
    ] as const) {
      const r = await runCli(
        [
          "--base-url",
          "http://127.0.0.1:9",
          "tail",
          "--deployment",
          "dep",
          "-f",
          "-o",
          "json",
          "--checkpoint",
          checkpoint,
          "--output-file",
          out,
        ],
        { env: ENV },
      );
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(
        `tvcwatch: --checkpoint ${checkpoint} and --output-file ${out} are the same file: each record would replace the lines written; name two files`,
      );
    }
    expect(readFileSync(file, "utf8")).toBe('{"kept":true}\n');
    expect(existsSync(join(dir, "new"))).toBe(false);
  });

  it("refuses a checkpoint whose point is ahead of the server's clock or older than it keeps logs, exit 2, before writing anything; --start-over starts afresh, saying what it skips", async () => {
    const server = await startLogServer({ replicas: 1, rate: 20, historyMs: 30_000 });
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-checkpoint-"));
    const out = join(dir, "out.ndjson");
    const checkpoint = join(dir, "dep.checkpoint");
    writeFileSync(out, '{"content":"kept"}\n{"content":"written after the last record"}\n');
    const st = statSync(out, { bigint: true });
    // Were the record taken, the file would be cut back to its first line.
    const write = (record: Record<string, unknown>) =>
      writeDepCheckpoint(checkpoint, record, {
        dev: String(st.dev),
        ino: String(st.ino),
        length: 19,
      });
    const run = (extra: string[] = []) =>
      runCli(
        [
          "--base-url",
          server.url,
          "tail",
          "--deployment",
          "dep",
          "-o",
          "json",
          "--interval",
          "250ms",
          "--checkpoint",
          checkpoint,
          "--output-file",
          out,
          ...extra,
        ],
        { env: ENV },
      );
    const before = readFileSync(out, "utf8");
    const startOver =
      "pass --start-over to set it aside and start from the last 10m (lines before that it had not handed on are skipped), or name another file";
    try {
      // 30 s ahead: a follow that took it would ask for one second and skip the 30 s between.
      write({ resumeFromMs: server.now() + 30_000 });
      const written = readFileSync(checkpoint, "utf8");
      const ahead = await run(["-f"]);
      expect(ahead.code).toBe(2);
      expect(ahead.stderr.trim()).toMatch(
        new RegExp(
          `^tvcwatch: checkpoint \\S+ resumes from \\S+Z, \\d+s ahead of the server's clock by its Date header \\(\\S+Z\\), so resuming would skip the lines since its real point: ${literally(startOver)}$`,
        ),
      );
      expect(readFileSync(out, "utf8")).toBe(before);
      expect(readFileSync(checkpoint, "utf8")).toBe(written);
      // Eight days back: further than the server keeps logs. Never a gap, never a guess.
      write({ resumeFromMs: server.now() - 8 * 86_400_000 });
      const expired = await run();
      expect(expired.code).toBe(2);
      expect(expired.stderr.trim()).toMatch(
        new RegExp(
          `^tvcwatch: checkpoint \\S+ resumes from \\S+Z, (8d|7d23h) before the server's clock by its Date header \\(\\S+Z\\), further back than the server keeps logs \\(7d\\): those lines can no longer be read; ${literally(startOver)}$`,
        ),
      );
      expect(readFileSync(out, "utf8")).toBe(before);
      // Numbers no follow writes are refused as they are read, naming the field.
      for (const [record, field] of [
        [{ resumeFromMs: -1e300 }, "resumeFromMs, -1e\\+300, is no time"],
        [{ resumeFromMs: server.now(), serverMinusWallMs: 1e300 }, "serverMinusWallMs, 1e\\+300"],
      ] as const) {
        write(record);
        const implausible = await run(["-f"]);
        expect(implausible.code).toBe(2);
        expect(implausible.stderr.trim()).toMatch(
          new RegExp(`^tvcwatch: checkpoint \\S+ is not a tvcwatch checkpoint \\(its ${field}`),
        );
        expect(implausible.stderr).not.toContain("invalid-timestamp");
        expect(readFileSync(out, "utf8")).toBe(before);
      }
      // --start-over: the record set aside, said with what it skips; the file appended to.
      write({ resumeFromMs: server.now() + 30_000 });
      const fresh = await run(["--start-over", "--since", "1m"]);
      expect(fresh.stderr.trim()).toBe(
        `tvcwatch: checkpoint ${checkpoint}: set aside (--start-over), starting from the last 1m: lines before that it had not handed on are skipped, and lines within it that it had handed on come again`,
      );
      expect(fresh.code).toBe(0);
      const after = readFileSync(out, "utf8");
      expect(after.startsWith(before)).toBe(true);
      const lines = after.slice(before.length).trim().split("\n");
      expect(lines.length).toBeGreaterThanOrEqual(500);
      expect(after).not.toContain("invalid-timestamp");
      const rewritten = JSON.parse(readFileSync(checkpoint, "utf8"));
      expect(rewritten.deployments[0].resumeFromMs).toBeLessThanOrEqual(server.now());
      // It resumes from what it wrote.
      const resumed = await run();
      expect(resumed.stderr).toBe("");
      expect(resumed.code).toBe(0);
      // --start-over alone names what it needs.
      const alone = await runCli(
        ["--base-url", server.url, "tail", "--deployment", "dep", "--start-over"],
        { env: ENV },
      );
      expect(alone.code).toBe(2);
      expect(alone.stderr.trim()).toBe(
        "tvcwatch: --start-over sets aside what --checkpoint FILE records: name the FILE",
      );
    } finally {
      await server.close();
    }
  }, 60_000);

  it("a refused checkpoint leaves no new output file behind: the file this run created, still empty, is removed; one that was there is kept", async () => {
    const server = await startLogServer({ replicas: 1, rate: 20, historyMs: 30_000 });
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-checkpoint-"));
    const out = join(dir, "new.ndjson");
    const checkpoint = join(dir, "dep.checkpoint");
    const refused = () => {
      writeDepCheckpoint(checkpoint, { resumeFromMs: server.now() + 30_000 });
      return runCli(
        [
          "--base-url",
          server.url,
          "tail",
          "--deployment",
          "dep",
          "-f",
          "--interval",
          "250ms",
          "--checkpoint",
          checkpoint,
          "--output-file",
          out,
        ],
        { env: ENV },
      );
    };
    try {
      const first = await refused();
      expect(first.code).toBe(2);
      expect(first.stderr).toContain("ahead of the server's clock");
      expect(existsSync(out)).toBe(false);
      // Nor is the refused checkpoint rewritten (it would name a file that is not there).
      expect(JSON.parse(readFileSync(checkpoint, "utf8")).outputFile).toBeUndefined();
      // A file that was there before the run, even empty, is left as it was.
      writeFileSync(out, "");
      const second = await refused();
      expect(second.code).toBe(2);
      expect(readFileSync(out, "utf8")).toBe("");
    } finally {
      await server.close();
    }
  }, 60_000);

  it("over several deployments, refuses the checkpoint when one deployment's record is ahead of the server's clock, naming that deployment", async () => {
    const server = await startLogServer({ replicas: 1, rate: 10, historyMs: 5000 });
    const dir = mkdtempSync(join(tmpdir(), "tvcwatch-checkpoint-"));
    const checkpoint = join(dir, "many.checkpoint");
    const out = join(dir, "refused.ndjson");
    const record = (deploymentId: string, resumeFromMs: number) => ({
      deploymentId,
      resumeFromMs,
      slackMs: 3000,
      clock: "server",
      serverMinusWallMs: 0,
      lines: "",
    });
    writeFileSync(
      checkpoint,
      JSON.stringify({
        format: 3,
        deployments: [record("dep-a", server.now() - 2000), record("dep-b", server.now() + 30_000)],
      }),
    );
    const written = readFileSync(checkpoint, "utf8");
    try {
      const r = await runCli(
        [
          "--base-url",
          server.url,
          "tail",
          "--deployment",
          "dep-a",
          "--deployment",
          "dep-b",
          "-f",
          "-o",
          "json",
          "--checkpoint",
          checkpoint,
          "--output-file",
          out,
        ],
        { env: ENV },
      );
      expect(r.code).toBe(2);
      // The output file this run created, nothing written to it, is not left behind.
      expect(existsSync(out)).toBe(false);
      expect(r.stderr.trim().split("\n").at(-1)).toMatch(
        /^tvcwatch: checkpoint \S+ resumes deployment dep-b from \S+Z, \d+s ahead of the server's clock by its Date header \(\S+Z\), so resuming would skip the lines since its real point: pass --start-over/,
      );
      expect(readFileSync(checkpoint, "utf8")).toBe(written);
    } finally {
      await server.close();
    }
  }, 30_000);
});

/** A format 3 checkpoint of deployment "dep" on the server's clock: `record` over its defaults. */
function writeDepCheckpoint(
  path: string,
  record: Record<string, unknown>,
  outputFile?: { dev: string; ino: string; length: number },
): void {
  const dep = { deploymentId: "dep", slackMs: 3000, clock: "server", serverMinusWallMs: 0 };
  writeFileSync(
    path,
    JSON.stringify({ format: 3, deployments: [{ ...dep, lines: "", ...record }], outputFile }),
  );
}

/** `text` matched literally in a RegExp. */
function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

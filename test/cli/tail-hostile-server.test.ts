/**
 * `tail` against servers that do not behave (issue #10): no Date header and a line stamped an
 * hour ahead (nothing lost, nothing duplicated), and random hostile responses (nothing raw on the
 * terminal, the follow answers Ctrl-C at once, a response of the wrong shape is one line).
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { HOSTILE, RAW_UNSAFE } from "../api/hostile-samples.js";
import { json, scriptedServer } from "../helpers/http-server.js";
import type { ServedLine } from "../helpers/log-server.js";
import { startLogServer } from "../helpers/log-server.js";
import { BIN } from "../helpers/run-cli.js";
import { waitFor } from "../helpers/wait-for.js";
import { hostileEntries, mulberry } from "../tail/hostile-entries.js";

const key = generateKeyPair();
const env: Record<string, string> = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] =>
        e[1] !== undefined && !e[0].startsWith("TURNKEY_") && !e[0].startsWith("TVC_"),
    ),
  ),
  XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "tvcwatch-xdg-")),
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-hostile",
  NO_COLOR: "1",
};

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});

interface Followed {
  code: number | null;
  stdout: string;
  stderr: string;
  /** ms from SIGINT to exit. */
  exitMs: number;
}

/**
 * Runs `tvcwatch tail ARGS` until it ends by itself, or until `done` holds of what it printed
 * (checked every 50 ms, for at most 20 s), then Ctrl-C.
 */
async function followUntil(
  baseUrl: string,
  args: string[],
  done: (printed: { stdout: string; stderr: string }) => boolean,
): Promise<Followed> {
  const child = spawn(
    process.execPath,
    [BIN, "--base-url", baseUrl, "tail", "--deployment", "dep", ...args],
    { env },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  let exited = false;
  const closed = new Promise<number | null>((r) =>
    child.on("close", (code) => {
      exited = true;
      r(code);
    }),
  );
  await waitFor(() => exited || done({ stdout, stderr }), "what the test follows for", {
    detail: () => `stderr: ${stderr.slice(-300)}`,
  });
  if (exited) return { code: await closed, stdout, stderr, exitMs: 0 };
  const at = performance.now();
  child.kill("SIGINT");
  const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const code = await closed;
  clearTimeout(killer);
  return { code, stdout, stderr, exitMs: performance.now() - at };
}

const idOf = (e: { replicaLabel: string; ts: unknown; content: string }) =>
  JSON.stringify([e.replicaLabel, e.ts, e.content]);

function tsOf(l: ServedLine) {
  if (!l.hasTs) return null;
  const seconds = Math.floor(l.t / 1000);
  return { seconds: String(seconds), nanos: String(Math.round((l.t - seconds * 1000) * 1e6)) };
}

describe("tail -f against a server without Date headers and a line stamped an hour ahead", () => {
  it("loses and duplicates nothing", async () => {
    const server = await startLogServer({ dateHeader: false, replicas: 3, rate: 10 });
    closers.push(server.close);
    server.add({
      replicaLabel: "replica 2/3",
      t: server.now() + 3_600_000,
      hasTs: true,
      content: "stamped an hour ahead",
    });
    const started = server.now();
    const until = started + 9_000;
    // Followed until every line the server held up to 9 s in is printed.
    const printedAll = (stdout: string) => {
      const ids = new Set(
        stdout
          .slice(0, stdout.lastIndexOf("\n") + 1)
          .split("\n")
          .filter(Boolean)
          .map((l) => idOf(JSON.parse(l))),
      );
      return server
        .truth(until)
        .every((l) => l.visibleAt > until || ids.has(idOf({ ...l, ts: tsOf(l) })));
    };
    const r = await followUntil(
      server.url,
      ["-f", "-o", "json", "--interval", "1s"],
      ({ stdout }) => server.now() > until && printedAll(stdout),
    );
    expect(r.code).toBe(0);
    const got = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((e) => !e.event);
    const have = new Map<string, number>();
    for (const e of got) have.set(idOf(e), (have.get(idOf(e)) ?? 0) + 1);
    // Everything the server held until then: printed once, nothing else printed.
    const truth = server.truth();
    const want = truth.filter((l) => l.visibleAt <= until);
    const all = new Set(truth.map((l) => idOf({ ...l, ts: tsOf(l) })));
    let lost = 0;
    for (const l of want) if (!have.has(idOf({ ...l, ts: tsOf(l) }))) lost++;
    const duplicated = [...have.values()].reduce((n, c) => n + c - 1, 0);
    const unknown = [...have.keys()].filter((k) => !all.has(k)).length;
    expect(want.length).toBeGreaterThan(200);
    expect({ lost, duplicated, unknown }).toEqual({ lost: 0, duplicated: 0, unknown: 0 });
    expect(
      have.get(
        idOf({
          replicaLabel: "replica 2/3",
          ts: tsOf(truth.find((l) => l.content === "stamped an hour ahead") as ServedLine),
          content: "stamped an hour ahead",
        }),
      ),
    ).toBe(1);
  }, 30_000);
});

describe("tail against random hostile responses", () => {
  for (const output of ["text", "json"] as const) {
    it(`-o ${output}: nothing raw reaches the terminal, and Ctrl-C ends it at once`, async () => {
      const random = mulberry(output === "text" ? 11 : 12);
      const server = await scriptedServer((_req, res, i) => {
        // Every few responses, a fault the follower retries.
        if (i % 7 === 3)
          return json(res, 503, { code: 14, message: HOSTILE }, { "Retry-After": "0" });
        json(res, 200, { entries: hostileEntries(random, Date.now(), 1500) });
      });
      closers.push(server.close);
      const args = ["-f", "-o", output, "--interval", "250ms", "--timestamps"];
      const r = await followUntil(
        server.url,
        args,
        ({ stdout }) => server.requests.length > 5 && stdout.split("\n").length > 101,
      );
      expect(r.code).toBe(0);
      expect(r.exitMs).toBeLessThan(3_000);
      expect(server.requests.length).toBeGreaterThan(5);
      const lines = r.stdout.split("\n").filter((l) => l !== "");
      expect(lines.length).toBeGreaterThan(100);
      // A tab is passed on in text, as log tools do; nothing else a terminal acts on.
      const raw = (text: string) => RAW_UNSAFE.test(text.replace(/\t/g, " "));
      expect(lines.filter(raw)).toEqual([]);
      expect(r.stderr.split("\n").filter(raw)).toEqual([]);
      if (output === "json") for (const l of lines) JSON.parse(l);
    }, 30_000);
  }

  it("a response of the wrong shape: one escaped line; exit 1 without -f, retried with it", async () => {
    const random = mulberry(13);
    const server = await scriptedServer((req, res) =>
      // Polls of a follow ask for a window (sinceSeconds) after the first; the first is good.
      JSON.parse(req.body).sinceSeconds === "600"
        ? json(res, 200, { entries: hostileEntries(random, Date.now(), 200) })
        : json(res, 200, {
            entries: [{ replicaLabel: HOSTILE, line: { content: 7, ts: HOSTILE } }],
          }),
    );
    closers.push(server.close);
    const bad = await scriptedServer((_req, res) =>
      json(res, 200, { entries: [{ replicaLabel: HOSTILE, line: { content: 7, ts: HOSTILE } }] }),
    );
    closers.push(bad.close);
    const once = await followUntil(bad.url, [], () => false);
    expect(once.code).toBe(1);
    expect(once.stderr.trim().split("\n")).toHaveLength(1);
    expect(once.stderr).toMatch(/unexpected entries\.0\.line\.content/);
    const followed = await followUntil(server.url, ["-f", "--interval", "250ms"], ({ stderr }) =>
      /unexpected entries\.0\.line\.content/.test(stderr),
    );
    expect(followed.code).toBe(0);
    const status = followed.stderr.trim().split("\n");
    expect(status.at(-1)).toMatch(/unexpected entries\.0\.line\.content/);
    for (const r of [once, followed])
      expect(r.stderr.split("\n").filter((l) => RAW_UNSAFE.test(l))).toEqual([]);
  }, 30_000);
});

/**
 * `tail` without -f: a window of the usual shape is printed straight from the response's bytes
 * (src/tail/wire/plain-window.ts), anything else through the follower. Either way the user sees the
 * same lines: checked here against a real server, with `--grep ''` (a filter that keeps every
 * line) sending the same response through the follower.
 */
import { afterEach, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { scriptedServer } from "../helpers/http-server.js";
import { runCli } from "../helpers/run-cli.js";

const key = generateKeyPair();
const env = {
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-window",
  NO_COLOR: "1",
};

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});

/** A server that answers every debug-log request with this body (and a Date header). */
async function serving(body: string): Promise<string> {
  const server = await scriptedServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", date: new Date().toUTCString() });
    res.end(body);
  });
  closers.push(server.close);
  return server.url;
}

function entries(now: number, withUntimestamped: boolean): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < 300; i++) {
    const ms = now - 60_000 + i * 100;
    const r = (i % 3) + 1;
    // Each replica's lines together, as a server may list them: the merge interleaves them.
    const at = { seconds: String(Math.floor(ms / 1000)), nanos: String((ms % 1000) * 1e6 + r) };
    const content =
      i % 4 === 0
        ? JSON.stringify({ level: "info", msg: `settled ${i}`, note: "tab\there" })
        : i % 7 === 0
          ? `\u001b]52;c;ZXZpbA==\u0007 ${i} \u202e née`
          : `GET /v1/transfers ${i}`;
    out.push({ line: { content, ts: at }, replicaLabel: `replica ${r}/3` });
  }
  out.sort((a, b) =>
    (a as { replicaLabel: string }).replicaLabel.localeCompare(
      (b as { replicaLabel: string }).replicaLabel,
    ),
  );
  if (withUntimestamped) out.push({ line: { content: "no time" }, replicaLabel: "replica 2/3" });
  return out;
}

async function tail(url: string, extra: string[]) {
  return runCli(["--base-url", url, "tail", "--deployment", "dep", "--since", "2m", ...extra], {
    env,
  });
}

describe("tail without -f", () => {
  for (const withUntimestamped of [false, true]) {
    it(`prints the same bytes straight from the response as through the follower${withUntimestamped ? " (a response it hands to the follower)" : ""}`, async () => {
      const url = await serving(
        JSON.stringify({ entries: entries(Date.now(), withUntimestamped) }),
      );
      const direct = await tail(url, []);
      const followed = await tail(url, ["--grep", ""]);
      expect(direct.code).toBe(0);
      expect(followed.code).toBe(0);
      expect(direct.stderr).toBe("");
      expect(direct.stdout.split("\n")).toHaveLength(withUntimestamped ? 302 : 301);
      expect(direct.stdout).toBe(followed.stdout);
      // In timestamp order across replicas, sanitized.
      expect(direct.stdout.split("\n").slice(0, 3)).toEqual([
        '[replica 1/3] {"level":"info","msg":"settled 0","note":"tab\\there"}',
        "[replica 2/3] GET /v1/transfers 1",
        "[replica 3/3] GET /v1/transfers 2",
      ]);
      expect(direct.stdout).toContain("[replica 2/3] \\x1b]52;c;ZXZpbA==\\x07 49 \\u202e née");
      expect(direct.stdout).not.toContain("\u001b");
    });
  }

  it("prints the same with --timestamps (UTC and local) straight from the response as through the follower", async () => {
    const url = await serving(JSON.stringify({ entries: entries(Date.now(), false) }));
    for (const flags of [["--timestamps"], ["--timestamps", "--utc"]]) {
      const direct = await tail(url, flags);
      const followed = await tail(url, [...flags, "--grep", ""]);
      expect(direct.code).toBe(0);
      expect(direct.stdout.split("\n")).toHaveLength(301);
      expect(direct.stdout).toBe(followed.stdout);
      expect(direct.stdout).toMatch(
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}(Z|[+-]\d\d:\d\d) \[replica 1\/3\] /,
      );
    }
  });

  it("says what is wrong with a response of the wrong shape, in one line", async () => {
    const url = await serving(
      '{"entries":[{"line":{"content":"x","ts":{"seconds":"1","nanos":"0"}}}]}',
    );
    const result = await tail(url, []);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/replicaLabel/);
  });
});

/**
 * `tail --since` and `--until` against a real server on loopback: a clock time or RFC 3339 keeps
 * the lines stamped within the range (the window reaching back to it), without -f and with
 * several deployments; a bare number, an end in the future or with -f is refused in one line
 * before anything is sent.
 */
import { afterEach, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { scriptedServer } from "../helpers/http-server.js";
import { runCli } from "../helpers/run-cli.js";

const key = generateKeyPair();
const env = {
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-range",
  NO_COLOR: "1",
  TZ: "Asia/Kolkata",
};

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});

/** A line a second over the last 5 minutes (whole seconds, so ranges fall between them). */
function entries(now: number): unknown[] {
  const out: unknown[] = [];
  const last = Math.floor(now / 1000) - 1;
  for (let s = last - 300; s <= last; s++) {
    out.push({
      line: {
        content: `at ${new Date(s * 1000).toISOString()}`,
        ts: { seconds: String(s), nanos: "5" },
      },
      replicaLabel: "replica 1/1",
    });
  }
  return out;
}

async function serving(): Promise<{ url: string; asked: { sinceSeconds?: string }[] }> {
  const asked: { sinceSeconds?: string }[] = [];
  const server = await scriptedServer((req, res) => {
    asked.push(JSON.parse(req.body) as { sinceSeconds?: string });
    res.writeHead(200, { "content-type": "application/json", date: new Date().toUTCString() });
    res.end(JSON.stringify({ entries: entries(Date.now()) }));
  });
  closers.push(server.close);
  return { url: server.url, asked };
}

/** HH:mm:ss of `ms` in UTC. */
function clockUtc(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

describe("tail --since and --until", () => {
  it("keeps the lines stamped within a range of clock times (--utc) and exits 0", async () => {
    const { url, asked } = await serving();
    // Two minutes back, whole seconds: the range holds 31 lines (each inclusive end one).
    const from = Math.floor(Date.now() / 1000) * 1000 - 120_000;
    const until = from + 30_000;
    const r = await runCli(
      [
        "--base-url",
        url,
        "tail",
        "--deployment",
        "dep",
        "--utc",
        "--since",
        clockUtc(from),
        "--until",
        `${clockUtc(until)}.1`,
      ],
      { env },
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(31);
    expect(lines[0]).toBe(`[replica 1/1] at ${new Date(from).toISOString()}`);
    expect(lines.at(-1)).toBe(`[replica 1/1] at ${new Date(until).toISOString()}`);
    // One window, reaching back past --since by the margin for the server's clock.
    expect(asked).toHaveLength(1);
    const since = Number(asked[0]?.sinceSeconds);
    expect(since).toBeGreaterThanOrEqual(180);
    expect(since).toBeLessThan(190);
  });

  it("reads a clock time in the local zone, and RFC 3339, the same way (two deployments merged)", async () => {
    const { url } = await serving();
    const from = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    // Asia/Kolkata is UTC+05:30.
    const local = clockUtc(from + 5.5 * 3_600_000);
    const rfc = new Date(from + 10_000).toISOString().replace(".000Z", "+00:00");
    const r = await runCli(
      [
        "--base-url",
        url,
        "tail",
        "--deployment",
        "a",
        "--deployment",
        "b",
        "--since",
        local,
        "--until",
        rfc,
      ],
      { env },
    );
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n").filter((l) => l.includes("] at "));
    // Each deployment's 11 lines, merged.
    expect(lines).toHaveLength(22);
    expect(lines[0]).toContain(`at ${new Date(from).toISOString()}`);
    expect(lines.at(-1)).toContain(`at ${new Date(from + 10_000).toISOString()}`);
  });

  it.each([
    [
      ["--since", "90"],
      "option '--since <time>' argument '90' is invalid. 90 what? e.g. 90s or 90m",
    ],
    [["--since", "9".repeat(400)], "99999999… what? e.g. 99999999…s"],
    [["--until", "5m", "-f"], "--until 5m ends what is read, and -f follows new lines"],
    [["--until", "2099-01-01T00:00:00Z"], "--until 2099-01-01T00:00:00Z is in the future"],
    [["--since", "tomorrow"], '"tomorrow" is not a time: give a duration (10m)'],
  ])("refuses %j in one line, sending nothing", async (flags, said) => {
    const r = await runCli(
      ["--base-url", "http://127.0.0.1:9", "tail", "--deployment", "d", ...flags],
      {
        env,
      },
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")[0]).toContain(said);
    expect(r.stderr.split("\n")[0]?.length).toBeLessThan(200);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

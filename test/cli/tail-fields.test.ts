/**
 * `tail --fields` as a user runs it: the bundle against a loopback log server, JSON, key=value,
 * plain lines and a stack trace printed as aligned columns.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { type LogServer, startLogServer } from "../helpers/log-server.js";
import { runCli } from "../helpers/run-cli.js";

let server: LogServer;
const key = generateKeyPair();
const env = {
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-fields",
};

const LINES: [string, string][] = [
  ["replica 1/2", '{"level":"info","msg":"signed","service":"signer","latencyMs":42}'],
  ["replica 2/2", "level=warn msg=slow service=api latencyMs=812"],
  ["replica 1/2", '{"level":"error","msg":"nonce fetch failed \\u001b[31m","latencyMs":3000}'],
  ["replica 1/2", "    at fetchNonce (nonce.ts:12:5)"],
  ["replica 2/2", "plain text without fields"],
];

beforeAll(async () => {
  server = await startLogServer({ replicas: 0 });
  const start = server.now() - 30_000;
  for (const [i, [replicaLabel, content]] of LINES.entries())
    server.add({ replicaLabel, t: start + i * 10, hasTs: true, content });
});
afterAll(() => server.close());

function tail(flags: string[]) {
  return runCli(
    ["--base-url", server.url, "tail", "--deployment", "dep", "--since", "5m", ...flags],
    { env },
  );
}

describe("tail --fields", () => {
  it("prints the chosen fields as aligned columns, empty cells where a line has none, frames under their event", async () => {
    const r = await tail(["--fields", "replica,level,service,latencyMs,msg"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n").filter(Boolean)).toEqual([
      "replica 1/2  info   signer  42    signed",
      "replica 2/2  warn   api     812   slow",
      "replica 1/2  error          3000  nonce fetch failed \\x1b[31m",
      "        at fetchNonce (nonce.ts:12:5)",
      "replica 2/2                       plain text without fields",
    ]);
  });

  it("takes time as a column, in UTC with --utc, and keeps filters judging whole events", async () => {
    const r = await tail(["--fields", "time,msg", "--utc", "--where", "latencyMs >= 3000"]);
    expect(r.code).toBe(0);
    const rows = r.stdout.split("\n").filter(Boolean);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z {2}nonce fetch failed/);
    expect(rows[1]).toBe("        at fetchNonce (nonce.ts:12:5)");
  });

  it("refuses a malformed list, -o json and --timestamps in one line, exit 2", async () => {
    const empty = await tail(["--fields", "msg,,level"]);
    expect(empty.code).toBe(2);
    expect(empty.stderr.split("\n")[0]).toContain(
      "--fields <list>' argument 'msg,,level' is invalid. field 2 is empty",
    );
    const json = await tail(["--fields", "msg", "-o", "json"]);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain("--fields prints text columns");
    const stamped = await tail(["--fields", "msg", "--timestamps"]);
    expect(stamped.code).toBe(2);
    expect(stamped.stderr).toContain("--fields takes time as a column");
  });
});

/**
 * A server that never ends its answer (issue #10, item 9): `call` and `tail` read bodies as a
 * stream with a byte limit, stop at it with one line naming the limit and how to raise it, and
 * their memory stays bounded. Measured on the spawned program through /proc.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { scriptedServer } from "../helpers/http-server.js";
import { BIN, runCli } from "../helpers/run-cli.js";

const key = generateKeyPair();
const env = {
  ...process.env,
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-size",
};

/** Writes JSON-looking bytes for as long as the client reads. */
function streamForever(res: ServerResponse): void {
  res.writeHead(200, { "Content-Type": "application/json" });
  res.write('{"entries":[');
  const chunk = Buffer.from(
    `${'{"replicaLabel":"replica 1/1","line":{"content":"spam spam spam spam"}},'.repeat(900)}`,
  );
  const pump = () => {
    while (res.write(chunk)) {
      /* until the socket pushes back */
    }
  };
  res.on("drain", pump);
  res.on("error", () => {});
  pump();
}

let server: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  server = await scriptedServer((_r, res) => streamForever(res));
});
afterAll(() => server.close());

/** Runs the program, sampling its resident memory (VmRSS) until it exits. */
function runMeasured(
  args: string[],
): Promise<{ code: number | null; stderr: string; ms: number; maxRssMiB: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { env });
    let stderr = "";
    let maxRss = 0;
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout.resume();
    const sample = setInterval(() => {
      try {
        const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (m) maxRss = Math.max(maxRss, Number(m[1]) / 1024);
      } catch {
        /* exited between samples */
      }
    }, 25);
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearInterval(sample);
      clearTimeout(killer);
      resolve({ code, stderr, ms: performance.now() - started, maxRssMiB: maxRss });
    });
  });
}

const TAIL = ["tail", "--deployment", "dep", "--since", "1m"];

describe("a response that never ends", () => {
  it("call and tail (with and without -f) stop at the limit in one line, exit 1, memory bounded", async () => {
    for (const command of [["call", "whoami"], TAIL, [...TAIL, "-f"]]) {
      const before = server.requests.length;
      const r = await runMeasured([
        "--base-url",
        server.url,
        "--max-response-size",
        "16MiB",
        ...command,
      ]);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(
        /larger than the response size limit \(16 MiB\); stopped reading; raise the limit with --max-response-size \(e\.g\. --max-response-size 32MiB\)\n$/,
      );
      expect(server.requests.length - before).toBe(1);
      expect(r.ms).toBeLessThan(20_000);
      expect(r.maxRssMiB).toBeLessThan(200);
    }
  }, 90_000);

  it("has a default limit of 256 MiB, and memory stays near it", async () => {
    const r = await runMeasured(["--base-url", server.url, "call", "whoami"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/response size limit \(256 MiB\).*--max-response-size 512MiB/);
    expect(r.ms).toBeLessThan(45_000);
    expect(r.maxRssMiB).toBeLessThan(256 + 200);
  }, 60_000);

  it("refuses a --max-response-size it cannot honour, naming the range", async () => {
    for (const value of ["1TiB", "lots", "10"]) {
      const r = await runCli(["--max-response-size", value, "call", "whoami"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--max-response-size/);
      expect(r.stderr).toMatch(/out of range: from 1 KiB to 512 MiB|is not a size/);
    }
  });
});

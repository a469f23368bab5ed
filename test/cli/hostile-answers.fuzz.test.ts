/**
 * Nothing raw reaches the terminal, whatever a server answers (issue 29, point 6): random
 * list_tvc_app_deployments answers (ids and names with ESC, OSC, CSI, C1, BEL, CR, bidi; ids
 * repeated; some deployments that fail with a hostile message) through `tail --all` / `--app`,
 * and random OTLP collector answers (status text, headers, bodies) through `tail -o otlp`, each
 * from a loopback server to the program as a user runs it. Neither stdout nor stderr may hold
 * ESC, BEL, any other C0 control but tab and newline, DEL or C1 (U+0080-U+009F).
 */
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer as createNetServer, type Server as NetServer } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { runCli } from "../helpers/run-cli.js";

const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const FRAGMENTS = [
  "\u001b]0;PWNED\u0007",
  "\u001b]8;;https://evil.example/\u0007link\u001b]8;;\u0007",
  "\u001b]52;c;cHduZWQ=\u0007",
  "\u001b[2J",
  "\u001b[31m",
  "\u009b31m",
  "\u009d0;T\u009c",
  "\u0085",
  "\u0007",
  "\u001b",
  "\r",
  "\n",
  "\u0000",
  "\u007f",
  "\u202e",
  "\u2066",
  "\u200b",
  "dep",
  "-",
  "0",
  "7",
  "用",
  "👩‍💻",
];
const hostile = fc
  .array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(""));

const key = generateKeyPair();
const ENV = {
  TURNKEY_API_PUBLIC_KEY: key.publicKey,
  TURNKEY_API_PRIVATE_KEY: key.privateKey,
  TURNKEY_ORGANIZATION_ID: "org-fuzz",
};

function expectInert(out: { stdout: string; stderr: string; code: number | null }): void {
  expect(out.stdout).not.toMatch(RAW);
  expect(out.stderr).not.toMatch(RAW);
  expect(out.stderr).not.toMatch(/\n\s+at /);
  expect(out.code).not.toBeNull();
}

async function listen(server: Server | NetServer): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Listing {
  apps: { id: string; name: string }[];
  /** Per app: the deployments' ids (repeats kept) and whether each is in debug mode. */
  deployments: { id: string; debugMode: boolean }[][];
  /** Ids whose logs fail (404 with a hostile message). */
  failing: string[];
}

describe("random list_tvc_app_deployments answers", () => {
  let server: Server;
  let url = "";
  let listing: Listing = { apps: [], deployments: [], failing: [] };
  beforeAll(async () => {
    server = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const op = (req.url ?? "").split("/").pop();
        const body = JSON.parse(Buffer.concat(chunks).toString() || "{}");
        const send = (status: number, value: unknown) => {
          res.writeHead(status, { "Content-Type": "application/json" });
          res.end(JSON.stringify(value));
        };
        if (op === "list_tvc_apps")
          return send(200, {
            tvcApps: listing.apps.map((a) => ({ ...a, organizationId: "org-fuzz" })),
          });
        if (op === "list_tvc_app_deployments") {
          const i = listing.apps.findIndex((a) => a.id === body.appId);
          return send(200, {
            tvcDeployments: (listing.deployments[i] ?? []).map((d) => ({
              ...d,
              organizationId: "org-fuzz",
              appId: body.appId,
            })),
          });
        }
        if (op === "get_tvc_deployment_debug_logs") {
          const id = String(body.deploymentId);
          if (listing.failing.includes(id))
            return send(404, { code: 5, message: `deployment ${id} not found` });
          const seconds = String(Math.floor(Date.now() / 1000) - 5);
          return send(200, {
            entries: [
              {
                replicaLabel: `replica ${id}`,
                line: { content: `from ${id}`, ts: { seconds, nanos: "1" } },
              },
            ],
          });
        }
        send(404, { code: 5, message: "no such operation" });
      });
    });
    url = await listen(server);
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("tail --all / --app print them inert, on stdout and stderr", {
    timeout: 240_000,
  }, async () => {
    const app = fc.record({ id: hostile, name: hostile });
    const deployment = fc.record({ id: hostile, debugMode: fc.boolean() });
    const scenario = fc
      .record({
        apps: fc.array(app, { minLength: 1, maxLength: 3 }),
        deployments: fc.array(fc.array(deployment, { maxLength: 5 }), { maxLength: 3 }),
        repeat: fc.boolean(),
        failSome: fc.boolean(),
        flags: fc.constantFrom<string[]>(
          ["--all"],
          ["--all", "-o", "json"],
          ["--all", "--max-deployments", "2", "--timestamps"],
          ["--app", "APP"],
        ),
      })
      .map((s) => {
        const deployments = s.apps.map((_, i) => {
          const list = (s.deployments[i] ?? []).map((d) => ({ ...d, debugMode: true }));
          return s.repeat && list[0] ? [...list, list[0]] : list;
        });
        const ids = deployments.flat().map((d) => d.id);
        return {
          listing: {
            apps: s.apps,
            deployments,
            failing: s.failSome ? ids.filter((_, i) => i % 2 === 0) : [],
          },
          // An argument cannot hold NUL (the rest of a hostile name can be typed).
          flags: s.flags.map((f) =>
            f === "APP" ? (s.apps[0]?.name ?? "app").replaceAll("\u0000", "") || "app" : f,
          ),
        };
      });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ listing: next, flags }) => {
        listing = next;
        const r = await runCli(["--base-url", url, "tail", "--since", "1m", ...flags], {
          env: ENV,
          timeoutMs: 20_000,
        });
        expectInert(r);
      }),
      { numRuns: 14, seed: 29 },
    );
  });
});

/** An answer of the collector, as raw bytes (status line, headers, body). */
interface CollectorAnswer {
  status: number;
  reason: string;
  headers: [string, string][];
  body: string;
}

describe("random OTLP collector answers", () => {
  let logs: Server;
  let logsUrl = "";
  let collector: NetServer;
  let collectorUrl = "";
  let answer: CollectorAnswer = { status: 400, reason: "Bad", headers: [], body: "" };
  beforeAll(async () => {
    logs = createHttpServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const seconds = String(Math.floor(Date.now() / 1000) - 5);
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify({
            entries: Array.from({ length: 3 }, (_, i) => ({
              replicaLabel: "replica 1/1",
              line: { content: `line ${i}`, ts: { seconds, nanos: String(i) } },
            })),
          }),
        );
      });
    });
    logsUrl = await listen(logs);
    // Raw TCP: the status line, headers and body are sent as the test says, byte for byte.
    collector = createNetServer((socket) => {
      let buffer = Buffer.alloc(0);
      socket.on("data", (data) => {
        buffer = Buffer.concat([buffer, data]);
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString("latin1");
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        buffer = buffer.subarray(end + 4 + length);
        const body = Buffer.from(answer.body, "utf8");
        const headers = answer.headers.map(([k, v]) => `${k}: ${v}\r\n`).join("");
        socket.write(
          Buffer.concat([
            Buffer.from(`HTTP/1.1 ${answer.status} ${answer.reason}\r\n${headers}`, "latin1"),
            Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, "latin1"),
            body,
          ]),
        );
      });
      socket.on("error", () => {});
    });
    collectorUrl = await listen(collector);
  });
  afterAll(async () => {
    await new Promise<void>((r) => logs.close(() => r()));
    await new Promise<void>((r) => collector.close(() => r()));
  });

  it("tail -o otlp says what the collector answered, inert", { timeout: 240_000 }, async () => {
    // Status codes the exporter does not retry (a retried one only takes longer to say the same).
    const status = fc.constantFrom(400, 401, 403, 404, 413, 415, 500, 501);
    const latin1 = fc
      .array(
        fc.oneof(
          fc.constantFrom("\u001b]0;PWNED\u0007", "\u001b[2J", "\u009b31m", "\u0085", "\u0007"),
          fc.constantFrom("\u009d", "\u00ff", "\u007f", "\u0000", "\t", "EVIL", " "),
        ),
        { maxLength: 6 },
      )
      .map((parts) => parts.join(""));
    const scenario = fc.record({
      status,
      reason: latin1,
      headers: fc.array(fc.tuple(fc.constantFrom("X-Evil", "Retry-After", "Server"), latin1), {
        maxLength: 2,
      }),
      body: fc.oneof(
        hostile,
        hostile.map((m) => JSON.stringify({ code: 3, message: m })),
        fc.constant(""),
      ),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async (next) => {
        answer = next;
        const r = await runCli(
          [
            "--base-url",
            logsUrl,
            "tail",
            "--deployment",
            "dep-1",
            "--since",
            "1m",
            "-o",
            "otlp",
            "--otlp-endpoint",
            `${collectorUrl}/v1/logs`,
          ],
          { env: ENV, timeoutMs: 30_000 },
        );
        expectInert(r);
        expect(r.stderr).toMatch(/OTLP|not exported/);
      }),
      { numRuns: 12, seed: 2929 },
    );
  });

  it("the status line of the issue, as it was sent", { timeout: 60_000 }, async () => {
    answer = {
      status: 400,
      reason: "\u001b]0;PWNED\u0007\u001b[2J\u009b31mEVIL",
      headers: [],
      body: "",
    };
    const r = await runCli(
      [
        "--base-url",
        logsUrl,
        "tail",
        "--deployment",
        "dep-1",
        "--since",
        "1m",
        "-o",
        "otlp",
        "--otlp-endpoint",
        `${collectorUrl}/v1/logs`,
      ],
      { env: ENV, timeoutMs: 30_000 },
    );
    expectInert(r);
    expect(r.stderr).toContain(
      "tvcwatch: OTLP: the collector refused 3 lines for good (\\x1b]0;PWNED\\x07\\x1b[2J\\x9b31mEVIL): they are lost",
    );
    expect(r.code).toBe(1);
  });
});

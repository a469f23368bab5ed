import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TurnkeyClient } from "../../../src/api/client.js";
import type { OperationName } from "../../../src/api/operations.js";
import { getOperation } from "../../../src/api/operations.js";
import { createFeeds } from "../../../src/feeds/feeds.js";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { LogFollower } from "../../../src/tail/follower.js";
import { displayWidth } from "../../../src/text/terminal-width.js";
import { mulberry as prng } from "../../helpers/seeded-random.js";
import type { Generator } from "../hostile-values.js";
import { generate, HOSTILE, rawControlIn } from "../hostile-values.js";
import { renderDashboard } from "../render-dashboard.js";

/**
 * Random hostile responses (sizes, escapes, wrong types, odd timestamps) through the real client
 * (validation and all), the pollers, the follower and the stores, into a rendered dashboard that
 * is sent random keys: every frame fits the terminal (no row longer, no more rows than it has),
 * none holds a raw control character, and memory stays bounded. A response that made a frame
 * take unbounded work would time the test out.
 */

const FRAGMENTS = [
  HOSTILE,
  "\u001b]0;T\u0007",
  "\u001b]52;c;eA==\u0007",
  "\u009b2J",
  "\u202e",
  "\u2066",
  "\u200b\u200d",
  "👍🏽❤️1️⃣👩‍💻🫨🇩🇪",
  "用户\t登录",
  "e\u0301",
  "ACTIVITY_STATUS_CONSENSUS_NEEDED",
  "Bounce",
  "1795000000000",
  "-1",
  "1e309",
  "",
];

/** A body's few long strings: sizes to stress the panes, not the JSON decoder. */
const LONG_STRINGS_PER_BODY = 2;

function randomGenerator(random: () => number): Generator {
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
  let long = 0;
  return {
    string: () => {
      const r = random();
      if (r < 0.02 && long++ < LONG_STRINGS_PER_BODY) {
        return pick(["x", "9", "用", "👩‍💻", "\t", "\u001b"]).repeat(
          20_000 + Math.floor(random() * 100_000),
        );
      }
      if (r < 0.1) return "9".repeat(1 + Math.floor(random() * 400));
      if (r < 0.2) {
        let s = "";
        for (let i = 0; i < 20; i++) s += String.fromCodePoint(Math.floor(random() * 0x30000));
        return s;
      }
      return Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(FRAGMENTS)).join("");
    },
    number: () => pick([0, 6, 9, 255, 256, 100_000, 2 ** 31 - 1]),
    union: (_, n) => Math.floor(random() * n),
    // Long lists at the top only: nested ones multiply.
    length: (path) => (!path.includes("[") && random() < 0.05 ? 100 : Math.floor(random() * 4)),
  };
}

/** Now and then a field of the wrong type (the client must refuse the response, by field). */
function mistype(value: unknown, random: () => number): unknown {
  if (random() < 0.03) return [null, 42, "text", [], {}, true][Math.floor(random() * 6)];
  if (Array.isArray(value)) return value.map((v) => mistype(v, random));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mistype(v, random)]));
  }
  return value;
}

function randomBody(name: OperationName, random: () => number): unknown {
  const op = getOperation(name);
  if (op.kind === "activity") throw new Error("queries only");
  return mistype(generate(op.response, randomGenerator(random)), random);
}

const READS = [
  "get_tvc_deployment_debug_logs",
  "list_activities",
  "list_email_events",
  "list_sol_transaction_history",
] as const satisfies readonly OperationName[];

/** Answers each query with a response made beforehand (making it is not what is timed). */
function fakeFetch(responses: Map<string, Response[]>): typeof fetch {
  return async (input) => {
    const name = String(input).split("/").pop() as string;
    return responses.get(name)?.shift() ?? new Response("{}", { status: 200 });
  };
}

const KEYS = [
  "w",
  "t",
  "\t",
  "\r",
  "\u001b",
  "\u001b[A",
  "\u001b[B",
  "\u001b[6~",
  "?",
  "s",
  " ",
  "g",
  "G",
  "e",
  "/x\r",
  "1",
];

describe("the dashboard's stores and render under random hostile responses", () => {
  it("draw every frame within the terminal, with no raw control character and bounded memory", async () => {
    const heapStart = process.memoryUsage().heapUsed;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (seed) => {
        const random = prng(seed);
        const bodies = new Map<string, Response[]>();
        const client = new TurnkeyClient({
          baseUrl: "http://127.0.0.1:9",
          organizationId: "org",
          apiKey: {
            privateKey: "487f361ddfd73440e707f4daa6775b376859e8a3c9f29b3bb694a12927c0213c",
            publicKey: "02f739f8c77b32f4d5f13265861febd76e7a9c61a1140d296b8c16302508870316",
          },
          fetch: fakeFetch(bodies),
          retries: 0,
        });
        const store = new LogStore({ maxLines: 2000 });
        const follower = new LogFollower({
          fetchLogs: (request, options) =>
            client.callWithMeta(
              "get_tvc_deployment_debug_logs",
              { deploymentId: "d", ...request },
              options,
            ),
        });
        follower.onEvents((events) => store.append(events));
        const feeds = createFeeds(client, {
          intervalMs: 1000,
          emails: ["ops@example.com"],
          solanaAddresses: ["Addr1", "Addr2"],
          caip2: "solana:mainnet",
        });
        const columns = [80, 120, 160][seed % 3] as number;
        const rows = [24, 40, 48][seed % 3] as number;
        const { ui, type, settled, unmount } = await renderDashboard({
          size: { columns, rows },
          logs: () => ({ store, follow: follower }),
          feeds,
          heading: { kind: "deployments", deploymentId: `dep${HOSTILE}` },
        });
        try {
          for (let round = 0; round < 3; round++) {
            for (const name of READS) {
              const count =
                name === "list_email_events" || name === "list_sol_transaction_history" ? 2 : 1;
              bodies.set(
                name,
                Array.from(
                  { length: count },
                  () =>
                    new Response(JSON.stringify(randomBody(name, random)), {
                      status: 200,
                      headers: { "content-type": "application/json" },
                    }),
                ),
              );
            }
            await Promise.all([
              follower.pollOnce().catch(() => {}),
              feeds.activities.pollOnce(),
              feeds.email?.pollOnce(),
              feeds.solana?.pollOnce(),
            ]);
            await settled();
            for (let k = 0; k < 4; k++) {
              await type(KEYS[Math.floor(random() * KEYS.length)] as string);
            }
          }
          for (const frame of ui.frames) {
            expect(rawControlIn(frame), `seed ${seed}`).toBeUndefined();
            const lines = frame
              .replace(/\u001b\[[0-9;]*m/g, "")
              .replace(/\n$/, "")
              .split("\n");
            expect(lines.length, `seed ${seed}`).toBeLessThan(rows);
            for (const l of lines) {
              expect(displayWidth(l), `seed ${seed}: ${l}`).toBeLessThanOrEqual(columns);
            }
          }
        } finally {
          unmount();
        }
      }),
      // 366282572: an email timeline Ink cut by its own widths, a cell past the border.
      { numRuns: 25, endOnFailure: true, examples: [[366282572]] },
    );
    const growth = process.memoryUsage().heapUsed - heapStart;
    expect(growth).toBeLessThan(512 * 1024 * 1024);
  }, 240_000);
});

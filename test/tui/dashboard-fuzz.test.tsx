import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TurnkeyClient } from "../../src/api/client.js";
import type { OperationName } from "../../src/api/operations.js";
import { getOperation } from "../../src/api/operations.js";
import { createFeeds } from "../../src/feeds/feeds.js";
import { LogFollower } from "../../src/tail/follower.js";
import { LogStore } from "../../src/tail/log-store.js";
import { Dashboard } from "../../src/tui/components/dashboard.js";
import { mulberry as prng } from "../helpers/seeded-random.js";
import type { Generator } from "./hostile-values.js";
import { generate, HOSTILE, rawControlIn } from "./hostile-values.js";
import { render } from "./render-at.js";

/**
 * Random hostile responses (sizes, escapes, wrong types, odd timestamps) through the real client
 * (validation and all), the pollers, the follower and the stores, into a rendered dashboard that
 * is sent random keys: every frame comes within a time bound, none holds a raw control character,
 * and memory stays bounded.
 */

/** A key press to its frame. */
const FRAME_BOUND_MS = 4000;
/** A poll of every feed (decoding and validating up to a few MB of JSON) to its frame. */
const POLL_BOUND_MS = 8000;

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

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

describe("the dashboard's stores and render under random hostile responses", () => {
  it("answer every frame in bounded time, with no raw control character and bounded memory", async () => {
    const heapStart = process.memoryUsage().heapUsed;
    let slowest = 0;
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
        const timed = async (what: string, bound: number, step: () => Promise<void>) => {
          const started = performance.now();
          await step();
          await settle();
          const ms = performance.now() - started;
          slowest = Math.max(slowest, ms);
          expect(ms, `${what} (seed ${seed})`).toBeLessThan(bound);
        };
        const columns = [80, 120, 160][seed % 3] as number;
        const rows = [24, 40, 48][seed % 3] as number;
        const ui = render(
          <Dashboard
            store={store}
            follower={follower}
            feeds={feeds}
            deploymentId={`dep${HOSTILE}`}
            onQuit={() => {}}
            columns={columns}
            rows={rows}
          />,
        );
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
            await timed("a poll of every feed and its frame", POLL_BOUND_MS, async () => {
              await Promise.all([
                follower.pollOnce().catch(() => {}),
                feeds.activities.pollOnce(),
                feeds.email?.pollOnce(),
                feeds.solana?.pollOnce(),
              ]);
            });
            for (let k = 0; k < 4; k++) {
              const key = KEYS[Math.floor(random() * KEYS.length)] as string;
              await timed(`key ${JSON.stringify(key)}`, FRAME_BOUND_MS, async () => {
                ui.stdin.write(key);
              });
            }
          }
          for (const frame of ui.frames) {
            expect(rawControlIn(frame), `seed ${seed}`).toBeUndefined();
          }
        } finally {
          ui.unmount();
        }
      }),
      { numRuns: 25, endOnFailure: true },
    );
    const growth = process.memoryUsage().heapUsed - heapStart;
    expect(growth).toBeLessThan(512 * 1024 * 1024);
    expect(slowest).toBeLessThan(POLL_BOUND_MS);
  }, 240_000);
});

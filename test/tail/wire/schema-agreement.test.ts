/**
 * The debug-log wire format is known to the zod schema (src/api/operations.ts, the operation's
 * request and response) and, for speed, to this folder: the guards, the overlap decoder and the
 * plain window printer. Here each is held to the schema: on valid and invalid bodies alike the
 * guards accept exactly what the schema accepts, the decoder gives what the schema gives (or
 * fails), and the printer prints only bodies the schema accepts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { getOperation } from "../../../src/api/operations.js";
import { decodeResponse } from "../../../src/api/validation.js";
import { DEBUG_LOG_FAST_PATH, DEBUG_LOGS } from "../../../src/tail/wire/guards.js";
import { OverlapDecoder } from "../../../src/tail/wire/overlap-decoder.js";
import { renderPlainWindow } from "../../../src/tail/wire/plain-window.js";
import { EXAMPLE_INPUTS } from "../../api/operation-examples.js";

const op = getOperation(DEBUG_LOGS);
if (op.kind !== "query") throw new Error(`${DEBUG_LOGS} is a query`);

describe("the guards (standing in for the schemas in the client)", () => {
  it("accept exactly what the operation's schema accepts", () => {
    const anyValue = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.constant(undefined),
      fc.boolean(),
      fc.dictionary(fc.string(), fc.string()),
    );
    const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof(a, anyValue);
    const entry = fc.record(
      {
        replicaLabel: maybe(fc.string()),
        line: maybe(
          fc.record(
            {
              content: maybe(fc.string()),
              ts: maybe(fc.record({ seconds: maybe(fc.string()), nanos: maybe(fc.string()) })),
            },
            { requiredKeys: ["content"] },
          ),
        ),
        extra: fc.string(),
      },
      { requiredKeys: ["line", "replicaLabel"] },
    );
    const body = fc.oneof(
      fc.record({ entries: fc.array(entry, { maxLength: 4 }) }),
      fc.record({ entries: anyValue }),
      anyValue,
    );
    fc.assert(
      fc.property(
        body,
        (value) =>
          DEBUG_LOG_FAST_PATH.acceptsResponse(value) === op.response.safeParse(value).success,
      ),
      { numRuns: 3000 },
    );
  });

  it("accept exactly the input the operation's request schema accepts", () => {
    const junk = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.constant(null),
      fc.constant(undefined),
      fc.boolean(),
      fc.array(fc.string(), { maxLength: 2 }),
    );
    const integerString = fc.oneof(
      fc.bigInt().map(String),
      fc.constantFrom("", "-", "1.5", " 1", "1 ", "+1", "1e3", "0x1", "-0", "12\n"),
    );
    const request = fc.record(
      {
        deploymentId: fc.oneof(fc.string(), fc.constant(""), junk),
        tailLines: fc.oneof(
          fc.integer({ min: -5, max: 2_147_483_650 }),
          fc.constantFrom(0, 2_147_483_647, 2_147_483_648, -1, 1.5, Number.NaN, Infinity),
          junk,
        ),
        sinceSeconds: fc.oneof(integerString, junk),
        extra: junk,
      },
      { requiredKeys: [] },
    );
    const input = fc.oneof(request, junk, fc.dictionary(fc.string(), junk, { maxKeys: 3 }));
    const fast = DEBUG_LOG_FAST_PATH;
    expect({ kind: fast.kind, path: fast.path }).toEqual({ kind: op.kind, path: op.path });
    fc.assert(
      fc.property(
        input,
        (value) => fast.acceptsInput(value) === op.request.safeParse(value).success,
      ),
      { numRuns: 5000 },
    );
    expect(fast.acceptsInput(EXAMPLE_INPUTS[DEBUG_LOGS])).toBe(true);
  });
});

const SERVER_DATE = 1_795_000_000_000;

/** Debug-log bodies as text: well-formed answers, answers with a wrong value, and other JSON. */
const bodyText = (() => {
  const content = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('{"line":', "a\nb", "\u001b["),
  );
  const ts = fc.record({
    seconds: fc.oneof(
      fc.integer({ min: -600, max: 0 }).map((s) => String(SERVER_DATE / 1000 + s)),
      fc.constantFrom("", "x", "-1"),
    ),
    nanos: fc.oneof(fc.nat(999_999_999).map(String), fc.constantFrom("", "1e3")),
  });
  const wrong = fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.constant([]));
  const valid = fc.record(
    {
      line: fc.record({ content, ts }, { requiredKeys: ["content"] }),
      replicaLabel: fc.constantFrom("replica 1/2", "replica 2/2"),
    },
    { requiredKeys: ["line", "replicaLabel"] },
  );
  const spoiled = fc
    .tuple(valid, fc.constantFrom("content", "ts", "seconds", "label", "line", "extra"), wrong)
    .map(([e, where, value]) => {
      const line = { ...e.line } as Record<string, unknown>;
      const entry = { ...e, line } as Record<string, unknown>;
      if (where === "content") line.content = value;
      else if (where === "ts") line.ts = value;
      else if (where === "seconds") line.ts = { ...(e.line.ts ?? { nanos: "0" }), seconds: value };
      else if (where === "label") entry.replicaLabel = value;
      else if (where === "line") entry.line = value;
      else entry.pod = value;
      return entry;
    });
  const entries = fc.array(
    fc.oneof({ weight: 8, arbitrary: valid }, { weight: 1, arbitrary: spoiled }),
    {
      maxLength: 8,
    },
  );
  const value = fc.oneof(
    { weight: 10, arbitrary: entries.map((list) => ({ entries: list })) },
    { weight: 1, arbitrary: entries.map((list) => ({ entries: list, next: 1 })) },
    { weight: 1, arbitrary: fc.record({ entries: wrong }) },
    { weight: 1, arbitrary: fc.jsonValue() },
  );
  return fc.oneof(
    { weight: 10, arbitrary: value.map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: value.map((v) => JSON.stringify(v, null, 1)) },
    { weight: 1, arbitrary: value.map((v) => JSON.stringify(v).slice(0, -1)) },
    { weight: 1, arbitrary: fc.string() },
  );
})();

/** What the schema makes of a body: its value, or that it fails. */
function bySchema(text: string): { ok: unknown } | { fails: true } {
  try {
    return { ok: decodeResponse(DEBUG_LOGS, text) };
  } catch {
    return { fails: true };
  }
}

describe("the overlap decoder", () => {
  it("gives what the schema gives, for each body of a run, or fails where the schema fails", async () => {
    let accepted = 0;
    let refused = 0;
    let reused = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(bodyText, { minLength: 1, maxLength: 4 }), async (texts) => {
        const decoder = new OverlapDecoder(2);
        // Each text also after itself, so the previous answer's entries are there to reuse.
        for (const text of texts.flatMap((t) => [t, t])) {
          const expected = bySchema(text);
          const got = await decoder.decode(text).then(
            (ok) => ({ ok }),
            () => ({ fails: true as const }),
          );
          expect(got).toEqual(expected);
          if ("ok" in expected) accepted += 1;
          else refused += 1;
        }
        reused += decoder.counts.reused;
      }),
      { numRuns: 500 },
    );
    // Valid and invalid bodies both met, and entries taken from the answer before.
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
    expect(reused).toBeGreaterThan(100);
  });
});

describe("the plain window printer", () => {
  it("prints only bodies the schema accepts", () => {
    let printed = 0;
    fc.assert(
      fc.property(bodyText, (text) => {
        const out = renderPlainWindow(Buffer.from(text, "utf8"), SERVER_DATE);
        if (out === undefined) return;
        printed += 1;
        expect(bySchema(text)).toHaveProperty("ok");
      }),
      { numRuns: 2000 },
    );
    expect(printed).toBeGreaterThan(100);
  });
});

/**
 * Hostile responses generated from the operation table: every string field of a response schema
 * (walked through zod's definitions, so a field added to a schema is covered without touching the
 * tests) gets a value full of escape sequences and controls.
 */
import type { z } from "zod";
import type { OperationName } from "../../src/api/operations.js";
import { getOperation } from "../../src/api/operations.js";

/**
 * OSC 0 (title), OSC 8 (link), OSC 52 (clipboard), CSI (clear, SGR), DCS, C1 CSI, bidi overrides
 * and isolates, marks, zero-width characters, line separators, BEL, BS, CR, LF, DEL, BOM, and a
 * lone ESC at the end.
 */
export const HOSTILE =
  "\u001b]0;PWNED-TITLE\u0007\u001b]8;;https://evil.example/\u0007link\u001b]8;;\u0007" +
  "\u001b]52;c;cHduZWQ=\u0007\u001b[2J\u001b[H\u001b[31mred\u001bP1$qm\u001b\\" +
  "\u009b31m\u202eevil\u2066iso\u2069\u200e\u200f\u061c\u200b\u200c\u200d\u2060\u2028\u2029" +
  "\u0007\u0008\r\n\u007f\ufeff\u0085\u001b";

/** What must never reach a frame: every control but LF, and the invisible reorderers. */
export const RAW_CONTROL =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;

/** A ZWJ between two emoji is part of one glyph (👩‍💻), drawn, not a control. */
const EMOJI_JOINER =
  /(?<=\p{Extended_Pictographic}[\u{1f3fb}-\u{1f3ff}\ufe0f]?)\u200d(?=\p{Extended_Pictographic})/gu;

/** The first raw control in a frame, with its context, or undefined. */
export function rawControlIn(text: string): string | undefined {
  const frame = text.replace(EMOJI_JOINER, "");
  const m = RAW_CONTROL.exec(frame);
  if (!m) return undefined;
  const at = m.index;
  return `U+${(m[0].codePointAt(0) ?? 0).toString(16).padStart(4, "0")} at ${at}: ${JSON.stringify(frame.slice(Math.max(0, at - 40), at + 40))}`;
}

export interface Generator {
  /** The value of a string field at `path`. */
  string(path: string): string;
  number(path: string): number;
  /** Which option of a union to take. */
  union(path: string, options: number): number;
  /** How many items an array gets. */
  length(path: string): number;
}

export const hostileGenerator = (variant = 0): Generator => ({
  string: (path) => `${HOSTILE}${path}`,
  number: () => 6,
  // Variant 0 takes a union's last option (an open enum's free string), variant 1 its first.
  union: (_, n) => (n - 1 - (variant % n) + n) % n,
  length: () => 2,
});

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  entries?: Record<string, string>;
  values?: unknown[];
};

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Counts of what the last `generate` filled in, to check the walk reached the fields. */
export interface Coverage {
  strings: Set<string>;
}

/** A value of `schema` (one that parses) made by `gen`, walking every field. */
export function generate(
  schema: z.ZodType,
  gen: Generator,
  coverage: Coverage = { strings: new Set() },
  path = "$",
): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(def.shape ?? {})) {
        out[key] = generate(inner, gen, coverage, `${path}.${key}`);
      }
      // A loose object passes unknown fields on: a hostile extra field too.
      if (def.catchall && defOf(def.catchall).type === "unknown") {
        out[`extra${HOSTILE}`] = gen.string(`${path}.extra`);
      }
      return out;
    }
    case "array":
      return Array.from({ length: gen.length(path) }, (_, i) =>
        generate(def.element as z.ZodType, gen, coverage, `${path}[${i}]`),
      );
    case "optional":
    case "nullable":
    case "default":
      return generate(def.innerType as z.ZodType, gen, coverage, path);
    case "union": {
      const options = def.options ?? [];
      return generate(
        options[gen.union(path, options.length)] as z.ZodType,
        gen,
        coverage,
        `${path}|`,
      );
    }
    case "record":
      return {
        [`key${HOSTILE}`]: generate(def.valueType as z.ZodType, gen, coverage, `${path}{}`),
        session: gen.string(`${path}.session`),
      };
    case "string":
      coverage.strings.add(path);
      return gen.string(path);
    case "number":
      return gen.number(path);
    case "boolean":
      return path.length % 2 === 0;
    case "enum":
      return Object.values(def.entries ?? {})[0];
    case "literal":
      return def.values?.[0];
    case "unknown":
    case "any":
      coverage.strings.add(path);
      return { nested: gen.string(`${path}.nested`), list: [gen.string(`${path}[]`)] };
    default:
      throw new Error(`hostile-values: no generator for zod type "${def.type}" at ${path}`);
  }
}

/** The responses the dashboard reads. */
export const DASHBOARD_READS = [
  "list_activities",
  "list_email_events",
  "list_sol_transaction_history",
  "list_tvc_apps",
  "list_tvc_app_deployments",
  "get_tvc_deployment",
  "whoami",
  "get_tvc_deployment_debug_logs",
] as const satisfies readonly OperationName[];

export type DashboardRead = (typeof DASHBOARD_READS)[number];

/** A generated response of an operation, parsed by its schema (as the client does). */
export function response(name: OperationName, gen: Generator, coverage?: Coverage): unknown {
  const op = getOperation(name);
  if (op.kind === "activity") throw new Error(`${name} is an activity`);
  return op.response.parse(generate(op.response, gen, coverage));
}

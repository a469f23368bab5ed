/**
 * A valid response for every operation of the table, generated from its zod schema, with a
 * hostile value in every string the schema lets one into: every free string field, every record
 * key, and an extra unknown field in every loose object. A field added to a schema is covered
 * without touching this file; a schema construct it does not know makes it throw, so the tests
 * built on it fail loudly instead of silently covering less.
 */
import type { z } from "zod";
import type { OperationName } from "../../src/api/operations.js";
import { getOperation } from "../../src/api/operations.js";
import { activity as activitySchema } from "../../src/api/schemas.js";

/**
 * Escape sequences (OSC 0 title, OSC 8 link, OSC 52 clipboard, CSI, DCS), a lone ESC, C1 U+009B,
 * bidi controls (U+202E, U+2066-U+2069, U+200E/U+200F, U+061C), zero-width characters, and C0
 * controls a terminal acts on.
 */
export const HOSTILE =
  "x\u001b]0;pwned\u0007 \u001b]8;;https://evil.example/\u001b\\link\u001b]8;;\u001b\\ " +
  "\u001b]52;c;cHduZWQ=\u0007 \u001b[2J\u001b[31mred \u001bP1$qm\u001b\\ \u001b \u009b31m " +
  "\u202eevil\u202c \u2066iso\u2069 \u200eltr\u200f \u061calm \u200bzero\u200c\u200d\u2060\ufeff " +
  "\r\n\t\u0008\u007f end";

/** Characters that must never reach a terminal raw (newline aside, which ends a line). */
export const RAW_UNSAFE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;

/** Plain values tried, in order, for a string the schema constrains (a regex, a format). */
const CONSTRAINED_STRING_CANDIDATES = [
  "1",
  "0",
  "a",
  `sha256:${"ab".repeat(32)}`,
  "2026-01-01T00:00:00Z",
  "ops@example.com",
  "https://example.com",
  "solana:mainnet",
];

interface Def {
  type: string;
  [key: string]: unknown;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

function checked(schema: z.ZodType, candidates: unknown[], what: string): unknown {
  for (const c of candidates) if (schema.safeParse(c).success) return c;
  throw new Error(`hostile-samples: no valid sample for a ${what} (${JSON.stringify(candidates)})`);
}

/** A valid value of `schema` carrying `hostile` wherever the schema allows a free string. */
export function hostileSample(schema: z.ZodType, hostile = HOSTILE): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
      return checked(schema, [hostile, ...CONSTRAINED_STRING_CANDIDATES], "constrained string");
    case "number":
    case "int":
      return checked(schema, [1, 0, 2, 100], "number");
    case "boolean":
      return true;
    case "null":
      return null;
    case "undefined":
    case "void":
      return undefined;
    case "unknown":
    case "any":
      return hostile;
    case "literal":
      return (def.values as unknown[])[0];
    case "enum":
      return Object.values(def.entries as Record<string, unknown>)[0];
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
      return hostileSample(def.innerType as z.ZodType, hostile);
    case "pipe":
      return hostileSample(def.in as z.ZodType, hostile);
    case "lazy":
      return hostileSample((def.getter as () => z.ZodType)(), hostile);
    case "array": {
      const element = hostileSample(def.element as z.ZodType, hostile);
      return checked(schema, [[element], [element, element], []], "array");
    }
    case "tuple":
      return (def.items as z.ZodType[]).map((item) => hostileSample(item, hostile));
    case "union":
      return checked(
        schema,
        (def.options as z.ZodType[]).map((option) => hostileSample(option, hostile)),
        "union",
      );
    case "intersection":
      return {
        ...(hostileSample(def.left as z.ZodType, hostile) as object),
        ...(hostileSample(def.right as z.ZodType, hostile) as object),
      };
    case "record": {
      const key = hostileSample(def.keyType as z.ZodType, hostile) as string;
      return { [key]: hostileSample(def.valueType as z.ZodType, hostile) };
    }
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const value = hostileSample(field, hostile);
        if (value !== undefined) out[key] = value;
      }
      const catchall = def.catchall as z.ZodType | undefined;
      // A loose object keeps fields it does not know: one with a hostile name and value.
      if (catchall && defOf(catchall).type !== "never") out[`extra ${hostile}`] = hostile;
      return out;
    }
    default:
      throw new Error(`hostile-samples: zod type ${def.type} is not handled; add it`);
  }
}

/** A successful response body of `name`, valid against the table, hostile in every string. */
export function hostileResponse(name: OperationName, hostile = HOSTILE): unknown {
  const op = getOperation(name);
  if (op.kind !== "activity") return hostileSample(op.response, hostile);
  const envelope = hostileSample(activitySchema, hostile) as Record<string, unknown>;
  envelope.result = {
    ...(envelope.result as object),
    [op.resultKey]: hostileSample(op.result, hostile),
  };
  return { activity: envelope };
}

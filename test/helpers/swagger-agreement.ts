/**
 * Compares a zod schema of the operation table with the swagger schema of the same thing, field
 * by field, and lists where they disagree:
 * - the same fields (a field the swagger has and the table lacks is missing; one the table has
 *   and the swagger does not define is extra);
 * - the same types, and the same enum values where the swagger has an enum (a response field as
 *   an open enum: the swagger's values plus any string, so a value added later is kept);
 * - required: what the client sends (`request`) has every field the swagger requires; what it
 *   accepts (`response`) demands no field the swagger does not promise (it may be more lenient).
 */
import type { z } from "zod";
import { deref, type Schema, type SwaggerDoc } from "./turnkey-swagger.js";

export type Direction = "request" | "response";

interface ZodDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
  options?: z.ZodType[];
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  values?: unknown[];
}

const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: ZodDef } })._zod.def;

/** The schema under optional / default / nullable wrappers, and whether a wrapper made it optional. */
function unwrap(s: z.ZodType): { schema: z.ZodType; optional: boolean } {
  let schema = s;
  let optional = false;
  for (;;) {
    const d = defOf(schema);
    if ((d.type === "optional" || d.type === "default") && d.innerType) {
      optional = true;
      schema = d.innerType;
    } else if ((d.type === "nullable" || d.type === "readonly") && d.innerType) {
      schema = d.innerType;
    } else return { schema, optional };
  }
}

/** The values of an enum, or of an open enum (a union of an enum and a plain string). */
export function enumValues(s: z.ZodType): { values: string[]; open: boolean } | undefined {
  const d = defOf(s);
  if (d.type === "enum" && d.entries) return { values: Object.values(d.entries), open: false };
  if (d.type === "union" && d.options?.length === 2) {
    const [a, b] = d.options as [z.ZodType, z.ZodType];
    if (defOf(a).type === "enum" && defOf(b).type === "string")
      return { values: Object.values(defOf(a).entries ?? {}), open: true };
  }
  return undefined;
}

const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

function describeEnumDiff(table: string[], swagger: string[]): string {
  const missing = swagger.filter((v) => !table.includes(v));
  const extra = table.filter((v) => !swagger.includes(v));
  return [
    missing.length
      ? `missing ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` (+${missing.length - 5})` : ""}`
      : "",
    extra.length ? `not in the swagger ${extra.slice(0, 5).join(", ")}` : "",
  ]
    .filter(Boolean)
    .join("; ");
}

export interface Comparison {
  doc: SwaggerDoc;
  direction: Direction;
  problems: string[];
}

/** Compares `table` (zod) with `swagger` at `path`, adding each disagreement to `c.problems`. */
export function compareSchemas(
  c: Comparison,
  path: string,
  table: z.ZodType,
  swagger: Schema,
): void {
  const sw = deref(c.doc, swagger);
  const { schema } = unwrap(table);
  const d = defOf(schema);
  const at = path || "(top)";

  if (sw.enum) {
    const e = enumValues(schema);
    if (!e)
      return void c.problems.push(
        `${at}: the swagger has an enum (${sw.enum.length} values), the table a ${d.type}`,
      );
    if (c.direction === "response" && !e.open)
      c.problems.push(
        `${at}: a closed enum in a response; an unknown value added later must be kept (open enum)`,
      );
    if (!sameSet(e.values, sw.enum))
      c.problems.push(`${at}: enum differs: ${describeEnumDiff(e.values, sw.enum)}`);
    return;
  }
  if (enumValues(schema) && d.type !== "string") {
    return void c.problems.push(`${at}: an enum in the table, the swagger has a plain ${sw.type}`);
  }
  switch (sw.type) {
    case "string":
      if (d.type !== "string" && d.type !== "literal")
        c.problems.push(`${at}: the swagger has a string, the table a ${d.type}`);
      return;
    case "integer":
    case "number":
      if (d.type !== "number")
        c.problems.push(`${at}: the swagger has a ${sw.type}, the table a ${d.type}`);
      return;
    case "boolean":
      if (d.type !== "boolean")
        c.problems.push(`${at}: the swagger has a boolean, the table a ${d.type}`);
      return;
    case "array":
      if (d.type !== "array" || !d.element)
        return void c.problems.push(`${at}: the swagger has an array, the table a ${d.type}`);
      compareSchemas(c, `${path}[]`, d.element, sw.items as Schema);
      return;
    default:
      compareObject(c, path, schema, sw);
  }
}

function compareObject(c: Comparison, path: string, schema: z.ZodType, sw: Schema): void {
  const at = path || "(top)";
  const d = defOf(schema);
  const props = (sw.properties ?? {}) as Record<string, Schema>;
  const required = new Set((sw.required ?? []) as string[]);
  // A map: additionalProperties (oauthClientIds), or an object of optional keys only, such as
  // the activity envelope's intent and result (each operation's own key is compared apart).
  if (d.type === "record") {
    const value = sw.additionalProperties as Schema | undefined;
    if (value && d.valueType) compareSchemas(c, `${path}{}`, d.valueType, value);
    else if (!value && required.size > 0)
      c.problems.push(`${at}: a map in the table, the swagger has an object with required fields`);
    return;
  }
  if (d.type === "union" && d.options) {
    // Timestamps: a string of epoch ms or the swagger's {seconds, nanos}; one option must agree.
    const tries = d.options.map((option) => {
      const sub: Comparison = { ...c, problems: [] };
      compareSchemas(sub, path, option, sw);
      return sub.problems;
    });
    if (!tries.some((p) => p.length === 0))
      c.problems.push(
        `${at}: no option of the table's union agrees with the swagger: ${tries[0]?.[0] ?? ""}`,
      );
    return;
  }
  if (d.type !== "object" || !d.shape)
    return void c.problems.push(`${at}: the swagger has an object, the table a ${d.type}`);
  const shape = d.shape;
  for (const [key, value] of Object.entries(props)) {
    const field = path ? `${path}.${key}` : key;
    const mine = shape[key];
    if (!mine) {
      c.problems.push(`${field}: in the swagger, missing from the table`);
      continue;
    }
    const optional = unwrap(mine).optional;
    if (c.direction === "request" && required.has(key) && optional)
      c.problems.push(`${field}: the swagger requires it, the table sends it optionally`);
    if (c.direction === "response" && !required.has(key) && !optional)
      c.problems.push(`${field}: the table demands it, the swagger does not promise it`);
    compareSchemas(c, field, mine, value);
  }
  for (const key of Object.keys(shape)) {
    if (!(key in props))
      c.problems.push(`${path ? `${path}.${key}` : key}: in the table, not defined by the swagger`);
  }
}

/**
 * Turnkey's own published API (Swagger 2.0, from tkhq/sdk; see test/fixtures/turnkey-openapi/
 * SOURCE.json), loaded from the copy in this repository after checking each file's SHA-256
 * against SOURCE.json, and a JSON-schema validator (Ajv, draft-04 as Swagger 2.0 uses) over its
 * definitions.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ajvDraft04, { type ErrorObject } from "ajv-draft-04";

/** ajv-draft-04 is CommonJS: the class is its exports' `default`. */
const AjvDraft04 = ajvDraft04.default;

export const SWAGGER_DIR = fileURLToPath(new URL("../fixtures/turnkey-openapi/", import.meta.url));

export type SwaggerFile = "public_api.swagger.json" | "auth_proxy.swagger.json";

// biome-ignore lint/suspicious/noExplicitAny: a JSON schema is arbitrary JSON.
export type Schema = Record<string, any>;

export interface SwaggerDoc {
  swagger: string;
  paths: Record<string, { post: Schema }>;
  definitions: Record<string, Schema>;
}

interface SourceJson {
  files: Record<SwaggerFile, { sha256: string }>;
}

export function readSource(): SourceJson {
  return JSON.parse(readFileSync(join(SWAGGER_DIR, "SOURCE.json"), "utf8")) as SourceJson;
}

export function sha256Of(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** A swagger file, refused unless its bytes are the ones SOURCE.json records. */
export function loadSwagger(file: SwaggerFile): SwaggerDoc {
  const path = join(SWAGGER_DIR, file);
  const want = readSource().files[file].sha256;
  const got = sha256Of(path);
  if (got !== want) throw new Error(`${path}: sha256 ${got}, SOURCE.json says ${want}`);
  return JSON.parse(readFileSync(path, "utf8")) as SwaggerDoc;
}

/**
 * The shared reference copy (`shared/reference/turnkey-openapi` beside the clone, found walking
 * up from the repository), if this machine has one.
 */
export function sharedReferenceDir(): string | undefined {
  let dir = fileURLToPath(new URL("../..", import.meta.url));
  for (;;) {
    const candidate = join(dir, "shared", "reference", "turnkey-openapi");
    if (existsSync(join(candidate, "SOURCE.json"))) return candidate;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

export const refName = (schema: Schema): string =>
  String(schema.$ref).replace("#/definitions/", "");

/** The schema a `$ref` points to, or the schema itself. */
export function deref(doc: SwaggerDoc, schema: Schema): Schema {
  return schema.$ref ? (doc.definitions[refName(schema)] as Schema) : schema;
}

/** The request body schema and the 200 response schema of a POST path. */
export function pathSchemas(doc: SwaggerDoc, path: string): { request: Schema; response: Schema } {
  const post = doc.paths[path]?.post;
  if (!post) throw new Error(`the swagger has no POST ${path}`);
  const body = (post.parameters as Schema[]).find((p) => p.in === "body");
  return { request: body?.schema as Schema, response: post.responses["200"].schema as Schema };
}

/** Every object that lists its properties gets additionalProperties: false (no undefined fields). */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema))
    out[k] = k === "properties" ? mapValues(v, closed) : closed(v);
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

function mapValues(o: Schema, f: (v: unknown) => unknown): Schema {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
}

export interface SwaggerValidator {
  /** Errors of `value` against `schema` (a definition's `$ref`, or an inline schema), or []. */
  errors(schema: Schema, value: unknown): string[];
}

/**
 * A validator over a swagger's definitions. `closed` also refuses fields the swagger does not
 * define (additionalProperties: false on every object with properties), for the simulator,
 * which must send nothing the real API does not.
 */
export function swaggerValidator(
  doc: SwaggerDoc,
  options: { closed?: boolean } = {},
): SwaggerValidator {
  const ajv = new AjvDraft04({ strict: false, allErrors: true });
  ajv.addFormat("int32", {
    type: "number",
    validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31,
  });
  ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat("uint64", /^\d+$/);
  ajv.addFormat("byte", /^[A-Za-z0-9+/]*={0,2}$/);
  const definitions = options.closed ? (closed(doc.definitions) as Schema) : doc.definitions;
  ajv.addSchema({ id: "swagger", definitions });
  return {
    errors(schema, value) {
      const rooted = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/definitions/', '"swagger#/definitions/'),
      );
      const validate = ajv.compile(options.closed ? (closed(rooted) as Schema) : rooted);
      if (validate(value)) return [];
      return (validate.errors ?? []).map(
        (e: ErrorObject) =>
          `${e.instancePath || "(top)"} ${e.message ?? "invalid"}${e.params && "additionalProperty" in e.params ? `: ${e.params.additionalProperty}` : ""}${e.params && "allowedValues" in e.params ? `: ${String(e.params.allowedValues).slice(0, 80)}` : ""}`,
      );
    },
  };
}

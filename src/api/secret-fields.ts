/**
 * Credentials and encrypted key material in API responses (session tokens, credential and export
 * bundles, secret payloads, OIDC tokens), as the operation table names them (./operations.ts;
 * test/api/secret-fields.test.ts checks this list is the table's), and a redactor that replaces
 * them wherever they appear (an activity's result, or its intent inside list_activities). A list
 * here rather than read from the table, so that what shows an activity loads no zod.
 */

export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  "credentialBundle",
  "exportBundle",
  "oidcToken",
  "secretPayloads",
  "session",
]);

export interface Redacted {
  value: unknown;
  /** The names of the fields replaced, each once, in the order met. */
  fields: string[];
}

const placeholder = (secret: unknown) =>
  `[redacted: ${typeof secret === "string" ? `${secret.length} characters` : "value"}]`;

/** A copy of `value` with every secret field's value replaced by a placeholder. */
export function redactSecrets(value: unknown): Redacted {
  const fields: string[] = [];
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== "object" || v === null) return v;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(v)) {
      if (SECRET_FIELDS.has(key) && inner !== undefined && inner !== "") {
        if (!fields.includes(key)) fields.push(key);
        out[key] = Array.isArray(inner) ? inner.map(placeholder) : placeholder(inner);
      } else {
        out[key] = walk(inner);
      }
    }
    return out;
  };
  return { value: walk(value), fields };
}

/**
 * An activity's intent in a few lines a person can judge before voting on it: each field of the
 * intent as `path  value` (nested fields by their path, `apiKeys[0].publicKey`), every value whole
 * (public keys, addresses, hashes and signatures are what a person compares: never cut; only a
 * value past MAX_SHOWN_VALUE is bounded, its rest counted), a user ID followed by that user's
 * name and any other ID the organization lists by its name, and secret fields (OIDC tokens, bundles: the operation table's list) never shown. Every
 * line is safe for a terminal; a caller that lacks the width wraps it, never cuts it.
 */
import { SECRET_FIELDS } from "../api/secret-fields.js";
import { grouped } from "../text/grouped-number.js";
import { sanitizeForTerminal } from "../text/sanitize.js";
import { NO_NAMES, type OrganizationNames } from "./organization-names.js";

export interface IntentSummaryOptions {
  /** Names of users by ID: a value that is a user's ID is followed by their name. */
  userNames?: ReadonlyMap<string, string> | undefined;
  /** Lines at most (default 12); the rest is counted on a last line. */
  maxLines?: number | undefined;
  /**
   * The organization's names: a value that is a wallet's, an account's, a key's, a tag's or a
   * policy's ID (or an account's address) is followed by `(wallet "Default wallet")`.
   */
  names?: OrganizationNames | undefined;
}

/**
 * The most of one value shown (16 KiB, far past any key, address or signature): a longer one (a
 * stored ABI) shows this much and counts the rest, so a megabyte field costs no more.
 */
export const MAX_SHOWN_VALUE = 16 * 1024;

/** A value as a person judges it: whole, or past MAX_SHOWN_VALUE its start and the rest counted. */
export function wholeValue(text: string): string {
  if (text.length <= MAX_SHOWN_VALUE) return text;
  let end = MAX_SHOWN_VALUE;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… (${grouped(text.length - end)} more characters; -o json has it whole)`;
}

/** The object inside `activity.intent` (it holds exactly one, named after the activity). */
export function intentBody(intent: Record<string, unknown>): unknown {
  const values = Object.values(intent);
  return values.length === 1 ? values[0] : intent;
}

function scalarText(value: unknown, options: Required<IntentSummaryOptions>): string {
  if (typeof value === "string") {
    const name = options.userNames.get(value);
    const shown = value === "" ? '""' : wholeValue(value);
    if (name) return `${shown} (${name})`;
    const label = options.names.label(value);
    return label ? `${shown} (${label})` : shown;
  }
  return String(value);
}

/** `path  value` pairs of every leaf of `value`, in order; secret fields redacted. */
function leaves(
  value: unknown,
  path: string,
  options: Required<IntentSummaryOptions>,
  out: [string, string][],
): void {
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push([path, "(none)"]);
      return;
    }
    if (value.every((v) => v === null || typeof v !== "object")) {
      out.push([path, value.map((v) => scalarText(v, options)).join(", ")]);
      return;
    }
    value.forEach((v, i) => {
      leaves(v, `${path}[${i}]`, options, out);
    });
    return;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) {
      out.push([path, "(empty)"]);
      return;
    }
    for (const [key, inner] of entries) {
      const at = path ? `${path}.${key}` : key;
      if (SECRET_FIELDS.has(key) && inner !== undefined && inner !== "") {
        out.push([
          at,
          `[redacted: ${typeof inner === "string" ? `${inner.length} characters` : "value"}]`,
        ]);
      } else {
        leaves(inner, at, options, out);
      }
    }
    return;
  }
  out.push([path || "(value)", scalarText(value, options)]);
}

/**
 * Lines summarizing an activity's intent (the envelope's `intent`, `{<name>Intent: {...}}`),
 * aligned `field  value`, at most `maxLines`. Safe for a terminal.
 */
export function summarizeIntent(
  intent: Record<string, unknown>,
  options: IntentSummaryOptions = {},
): string[] {
  const resolved: Required<IntentSummaryOptions> = {
    userNames: options.userNames ?? new Map(),
    maxLines: Math.max(1, options.maxLines ?? 12),
    names: options.names ?? NO_NAMES,
  };
  const body = intentBody(intent);
  if (
    body === undefined ||
    (typeof body === "object" &&
      body !== null &&
      !Array.isArray(body) &&
      Object.keys(body).length === 0)
  ) {
    return ["(no parameters)"];
  }
  const pairs: [string, string][] = [];
  leaves(body, "", resolved, pairs);
  const shown = pairs.length > resolved.maxLines ? pairs.slice(0, resolved.maxLines - 1) : pairs;
  const width = Math.min(28, Math.max(...shown.map(([k]) => k.length)));
  const lines = shown.map(([k, v]) => sanitizeForTerminal(`${k.padEnd(width)}  ${v}`));
  if (shown.length < pairs.length) {
    lines.push(`… ${pairs.length - shown.length} more fields (tvcwatch activity get ID -o json)`);
  }
  return lines;
}

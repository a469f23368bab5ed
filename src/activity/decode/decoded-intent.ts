/**
 * What decoding an activity's intent gives (a transaction, a payload): what it is, a one-line
 * summary for the confirmation's fixed header, the decoded rows (`label  value`, nested by
 * depth) that come first wherever a person judges the activity, and the same structured for
 * `-o json`. Built by ./ethereum.ts, ./solana.ts and ./raw-payload.ts; rendered here into lines,
 * each escaped for a terminal. Addresses, hashes and amounts are always whole: a summary too wide
 * for its row shortens its addresses only with each one whole on a line of its own.
 */
import { sanitizeForTerminal } from "../../text/sanitize.js";

/** One decoded row: `label  value` at a depth (0 = about the whole value). */
export interface DecodedRow {
  depth: number;
  label: string;
  value: string;
}

/** An address (or hash) a summary names: whole in `whole`, shortened in `short`. */
export interface SummaryAddress {
  /** What it is in the sentence: `to`, `token`, `spender`, `program`. */
  role: string;
  address: string;
}

/** The one line the confirmation's fixed header shows. */
export interface DecodedSummary {
  /** `sends 0.25 SOL to 9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM` */
  whole: string;
  /**
   * `sends 0.25 SOL to [to]`: each address of `addresses` named by its role, never shown cut (a
   * prefix is what an address made to look alike matches), for a line of its own below.
   */
  short: string;
  addresses: SummaryAddress[];
}

export interface DecodedIntent {
  /** `Solana transaction`, `Ethereum transaction`, `raw payload`, `EIP-712 typed data`. */
  what: string;
  /** Every part read; some parts not read (said in rows); or nothing read (said why). */
  outcome: "decoded" | "partly" | "not-decoded";
  summary: DecodedSummary;
  rows: DecodedRow[];
  /** The decoding structured, for `-o json` (bigints as decimal strings). */
  json: Record<string, unknown>;
}

/** An address no longer than this (after a `0x`) stays in the shortened sentence, whole. */
const SHORT_ADDRESS = 10;

export type SummaryPart = string | SummaryAddress;

/** A summary from words and addresses: `summaryOf("sends 1 SOL to ", {role: "to", address})`. */
export function summaryOf(...parts: SummaryPart[]): DecodedSummary {
  let whole = "";
  let short = "";
  const addresses: SummaryAddress[] = [];
  for (const part of parts) {
    if (typeof part === "string") {
      whole += part;
      short += part;
    } else {
      whole += part.address;
      const keep = SHORT_ADDRESS + (/^0x/i.test(part.address) ? 2 : 0);
      const long = part.address.length > keep;
      short += long ? `[${part.role}]` : part.address;
      if (long) addresses.push(part);
    }
  }
  return { whole, short, addresses };
}

/** The label column of the rows at depth 0 (as the activity's own lines: `  type         `). */
const LABEL = 13;

/** What names an id or address the organization lists (./organization-names.ts). */
export interface NameLabels {
  label(idOrAddress: string): string | undefined;
}

/** A row's value with the organization's name beside it, when the whole value is one it lists. */
function namedValue(value: string, names: NameLabels | undefined): string {
  const label = names && !value.includes("\n") ? names.label(value) : undefined;
  return label ? `${value} (${label})` : value;
}

/**
 * The decoded rows as lines, each `indent` + label + value, terminal-safe and never cut; a value
 * that is an id or address the organization lists has its name beside it
 * (`fee payer  G1m8… (wallet account "Default wallet m/44'/501'/0'/0'")`).
 */
export function decodedLines(
  decoded: DecodedIntent,
  indent = "  ",
  names?: NameLabels | undefined,
): string[] {
  const head = `${indent}${"decoded".padEnd(LABEL)}${decoded.what}`;
  const lines = [head, `${indent}  ${"summary".padEnd(LABEL - 2)} ${decoded.summary.whole}`];
  for (const row of decoded.rows) {
    const pad = `${indent}${"  ".repeat(row.depth + 1)}`;
    const width = Math.max(0, LABEL - 2 * (row.depth + 1));
    const label = row.label.length >= width ? `${row.label} ` : row.label.padEnd(width);
    const [first = "", ...more] = namedValue(row.value, names).split("\n");
    lines.push(`${pad}${label} ${first}`.trimEnd());
    const under = " ".repeat(pad.length + label.length + 1);
    for (const m of more) lines.push(`${under}${m}`.trimEnd());
  }
  return lines.map(sanitizeForTerminal);
}

/**
 * The summary as the confirmation's fixed header shows it in `width` columns: one line with
 * every address whole when it fits; else the shortened sentence (each address named by its role)
 * and each address whole on a line of its own, under that role. Terminal-safe.
 */
export function summaryLines(
  summary: DecodedSummary,
  width: number,
  label = "  decoded      ",
): string[] {
  const whole = sanitizeForTerminal(`${label}${summary.whole}`);
  if (whole.length <= width || summary.addresses.length === 0) return [whole];
  const pad = " ".repeat(label.length);
  return [
    sanitizeForTerminal(`${label}${summary.short}`),
    ...summary.addresses.map((a) => sanitizeForTerminal(`${pad}${a.role.padEnd(9)} ${a.address}`)),
  ];
}

/** What `-o json` adds under `decoded`: what it is, how far it was read, the summary, the fields. */
export function decodedJson(decoded: DecodedIntent): Record<string, unknown> {
  return {
    what: decoded.what,
    outcome: decoded.outcome,
    summary: decoded.summary.whole,
    ...decoded.json,
  };
}

/** A value that cannot be decoded: the reason in one line, and the raw value whole. */
export function notDecoded(what: string, reason: string, raw: string): DecodedIntent {
  const why = oneLine(reason);
  return {
    what: `not ${what}: ${why}`,
    outcome: "not-decoded",
    summary: summaryOf(`not decoded: not ${what}`),
    rows: [{ depth: 0, label: "raw", value: raw === "" ? '""' : raw }],
    json: { decoded: false, reason: `not ${what}: ${why}` },
  };
}

/** The longest reason said (a library's message can carry a whole dump). */
const MAX_REASON = 300;

/** A library's error message as one short line. */
export function oneLine(text: string): string {
  const first = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .join(" ");
  return first.length > MAX_REASON ? `${first.slice(0, MAX_REASON)}…` : first;
}

/** Why `err` stopped a decoding, in one line. */
export function reasonOf(err: unknown): string {
  if (err instanceof Error) {
    const short = (err as { shortMessage?: unknown }).shortMessage;
    return oneLine(typeof short === "string" && short !== "" ? short : err.message);
  }
  return oneLine(String(err));
}

/** A JSON-able copy: bigints as decimal strings, Uint8Arrays as hex. */
export function jsonable(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("hex");
  if (Array.isArray(value)) return value.map(jsonable);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonable(v)]));
  }
  return value;
}

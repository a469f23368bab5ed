/**
 * What a sign_raw_payload(s) asks to sign: the payload's encoding and the hash function said in
 * words; printable text (an EIP-4361 sign-in message, JSON, an EIP-191 personal message) shown as
 * text, line by line; EIP-712 typed data shown decoded (domain, primaryType, message) and hashed
 * with viem, which also checks it against its types; other bytes said for what they can be (a
 * 32-byte digest, EIP-712's signing input) and shown whole in hex.
 */
import { hashTypedData, type TypedDataDefinition } from "viem";
import {
  type DecodedIntent,
  type DecodedRow,
  jsonable,
  notDecoded,
  reasonOf,
  type SummaryPart,
  summaryOf,
} from "./decoded-intent.js";
import { tokenUnits } from "./eth-amounts.js";
import { asHex, chainText } from "./ethereum.js";
import { knownToken } from "./well-known.js";

const HASHES: Record<string, string> = {
  HASH_FUNCTION_NO_OP: "none: signed as given, so the payload must itself be a digest",
  HASH_FUNCTION_SHA256: "SHA-256 of the payload is signed",
  HASH_FUNCTION_KECCAK256: "Keccak-256 of the payload is signed",
  HASH_FUNCTION_NOT_APPLICABLE: "not applicable: the payload itself is signed (EdDSA)",
};

const ENCODINGS: Record<string, string> = {
  PAYLOAD_ENCODING_HEXADECIMAL: "hexadecimal bytes",
  PAYLOAD_ENCODING_TEXT_UTF8: "UTF-8 text",
  PAYLOAD_ENCODING_EIP712: "EIP-712 typed data (JSON)",
  PAYLOAD_ENCODING_EIP7702_AUTHORIZATION: "an EIP-7702 authorization",
};

/** A payload's encoding and hash function, as the intent names them. */
export interface PayloadIntent {
  payload: string;
  encoding: string;
  hashFunction: string;
}

const EIP191 = "\u0019Ethereum Signed Message:\n";

/** Printable text: valid UTF-8 with no control characters but tab and line breaks. */
function printable(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  if (text === "") return undefined;
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    const control = c < 0x20 || (c >= 0x7f && c <= 0x9f);
    if (control && ch !== "\t" && ch !== "\n" && ch !== "\r") return undefined;
  }
  return text;
}

/** What a text says it is: an EIP-4361 sign-in, JSON, or plain text. */
function textKind(text: string): string {
  if (/ wants you to sign in with your Ethereum account:\n/.test(text))
    return "an EIP-4361 sign-in message";
  const t = text.trim();
  if ((t.startsWith("{") && t.endsWith("}")) || (t.startsWith("[") && t.endsWith("]"))) {
    try {
      JSON.parse(t);
      return "JSON text";
    } catch {
      // not JSON: plain text
    }
  }
  return "text";
}

/** `beginning "Sign in to…"` for a summary (the whole text is in the rows). */
function beginning(text: string): string {
  const first = text.split("\n").find((l) => l.trim() !== "") ?? "";
  const short = first.length > 40 ? `${first.slice(0, 40)}…` : first;
  const lines = text.split("\n").length;
  return `${lines > 1 ? `${lines} lines ` : ""}beginning "${short}${short === first && lines > 1 ? "…" : ""}"`;
}

function textDecoding(text: string, how: string, hash: string): DecodedIntent {
  const kind = textKind(text);
  return {
    what: `${kind} to sign (${how})`,
    outcome: "decoded",
    summary: summaryOf(`signs ${kind}, ${beginning(text)}`),
    rows: [
      { depth: 0, label: "hash", value: hash },
      { depth: 0, label: "text", value: text },
    ],
    json: { kind, text },
  };
}

function hexDecoding(payload: string, hash: string, hashFunction: string): DecodedIntent {
  const hex = asHex(payload);
  if (!hex || hex === "0x") {
    return notDecoded(
      "hexadecimal",
      hex ? "it is empty" : "it has characters that are not hex digits",
      payload,
    );
  }
  const bytes = Uint8Array.from(Buffer.from(hex.slice(2), "hex"));
  const prefix = new TextEncoder().encode(EIP191);
  if (bytes.length > prefix.length && prefix.every((b, i) => bytes[i] === b)) {
    const message = printable(bytes.subarray(prefix.length));
    if (message !== undefined) {
      // The prefix carries the message's length in decimal before the message itself.
      const rest = message.replace(/^\d+/, "");
      const decoded = textDecoding(
        rest,
        "an EIP-191 personal message, its prefix in the payload",
        hash,
      );
      return { ...decoded, json: { ...decoded.json, eip191: true } };
    }
  }
  const text = printable(bytes);
  if (text !== undefined)
    return textDecoding(text, "hexadecimal bytes that are printable text", hash);
  const rows: DecodedRow[] = [{ depth: 0, label: "hash", value: hash }];
  let what: string;
  let summary: string;
  if (bytes.length === 66 && bytes[0] === 0x19 && bytes[1] === 0x01) {
    what =
      "EIP-712 signing input (0x1901, domain separator, struct hash): the typed data itself is not in the payload";
    summary =
      "signs an EIP-712 message whose typed data is not shown (only its hashes are in the payload)";
    rows.push(
      {
        depth: 0,
        label: "domain hash",
        value: `0x${Buffer.from(bytes.subarray(2, 34)).toString("hex")}`,
      },
      {
        depth: 0,
        label: "struct hash",
        value: `0x${Buffer.from(bytes.subarray(34)).toString("hex")}`,
      },
    );
  } else if (bytes.length === 32 && hashFunction === "HASH_FUNCTION_NO_OP") {
    what = "a 32-byte digest: what it is the hash of is not in the payload";
    summary = "signs a 32-byte digest (what it hashes is not shown)";
  } else {
    what = `${bytes.length} bytes, not printable text`;
    summary = `signs ${bytes.length} bytes of binary data`;
  }
  rows.push({ depth: 0, label: "bytes", value: `${hex} (${bytes.length} bytes)` });
  return {
    what,
    outcome: "decoded",
    summary: summaryOf(summary),
    rows,
    json: { kind: "bytes", bytes: bytes.length, hex },
  };
}

/** Rows of a typed-data value: nested structs by their path. */
function valueRows(value: unknown, path: string, depth: number, out: DecodedRow[]): void {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) valueRows(v, path ? `${path}.${k}` : k, depth, out);
    return;
  }
  const text =
    typeof value === "string"
      ? value
      : typeof value === "bigint"
        ? value.toString()
        : JSON.stringify(jsonable(value));
  out.push({ depth, label: path || "(value)", value: text ?? String(value) });
}

/** An EIP-2612 permit said as what it allows: who may spend how much of which token. */
function permitSummary(
  primaryType: string,
  domain: Record<string, unknown>,
  message: Record<string, unknown>,
  contract: string | undefined,
): SummaryPart[] | undefined {
  const { spender, value } = message;
  if (primaryType !== "Permit" || typeof spender !== "string") return undefined;
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "bigint")
    return undefined;
  const chainId = Number(domain.chainId);
  const token = contract && Number.isFinite(chainId) ? knownToken(chainId, contract) : undefined;
  const name = typeof domain.name === "string" ? domain.name : "the token";
  let amount = `${value} units of ${name}`;
  try {
    const raw = BigInt(value);
    if (raw === 2n ** 256n - 1n) amount = `an UNLIMITED amount of ${name}`;
    else if (token) amount = `${tokenUnits(raw, token.decimals)} ${token.symbol}`;
  } catch {
    // not a number: said as it is
  }
  return [
    "signs an EIP-2612 permit: lets ",
    { role: "spender", address: spender },
    ` spend ${amount}`,
  ];
}

function typedDataDecoding(payload: string, hash: string): DecodedIntent {
  let data: TypedDataDefinition;
  try {
    data = JSON.parse(payload) as TypedDataDefinition;
  } catch (err) {
    return notDecoded("EIP-712 typed data", `it is not JSON (${reasonOf(err)})`, payload);
  }
  if (
    data === null ||
    typeof data !== "object" ||
    typeof data.primaryType !== "string" ||
    !data.types
  ) {
    return notDecoded("EIP-712 typed data", "it has no types and primaryType", payload);
  }
  let digest: string;
  try {
    digest = hashTypedData(data);
  } catch (err) {
    return notDecoded("EIP-712 typed data", reasonOf(err), payload);
  }
  const domain = (data.domain ?? {}) as Record<string, unknown>;
  const rows: DecodedRow[] = [{ depth: 0, label: "hash", value: hash }];
  rows.push({ depth: 0, label: "primaryType", value: data.primaryType });
  rows.push({ depth: 0, label: "domain", value: "" });
  for (const [k, v] of Object.entries(domain)) {
    const text =
      k === "chainId" && (typeof v === "number" || typeof v === "bigint" || typeof v === "string")
        ? chainText(Number(v))
        : typeof v === "string"
          ? v
          : JSON.stringify(jsonable(v));
    rows.push({ depth: 1, label: k, value: text ?? String(v) });
  }
  rows.push({ depth: 0, label: "message", value: "" });
  valueRows((data as { message?: unknown }).message ?? {}, "", 1, rows);
  rows.push({ depth: 0, label: "digest", value: `${digest} (EIP-712 hash, by viem)` });
  const name = typeof domain.name === "string" ? ` for ${domain.name}` : "";
  const contract =
    typeof domain.verifyingContract === "string" ? domain.verifyingContract : undefined;
  const message = ((data as { message?: unknown }).message ?? {}) as Record<string, unknown>;
  const parts: SummaryPart[] = permitSummary(data.primaryType, domain, message, contract) ?? [
    `signs EIP-712 ${data.primaryType}${name}`,
  ];
  if (contract) parts.push(" (contract ", { role: "contract", address: contract }, ")");
  return {
    what: `EIP-712 typed data, ${data.primaryType}`,
    outcome: "decoded",
    summary: summaryOf(...parts),
    rows,
    json: {
      kind: "eip712",
      primaryType: data.primaryType,
      domain: jsonable(domain),
      message: jsonable((data as { message?: unknown }).message ?? {}),
      digest,
    },
  };
}

/** One payload decoded, by its encoding. */
export function decodePayload(intent: PayloadIntent): DecodedIntent {
  const hash =
    HASHES[intent.hashFunction] ?? `${intent.hashFunction} (not a hash function tvcwatch knows)`;
  const how = ENCODINGS[intent.encoding];
  const decoded = decodeByEncoding(intent, hash);
  const said = how ?? `${intent.encoding} (not an encoding tvcwatch knows)`;
  return {
    ...decoded,
    what: `${decoded.what}; encoding ${said}`,
    json: {
      ...decoded.json,
      encoding: intent.encoding,
      hashFunction: intent.hashFunction,
    },
  };
}

function decodeByEncoding(intent: PayloadIntent, hash: string): DecodedIntent {
  switch (intent.encoding) {
    case "PAYLOAD_ENCODING_HEXADECIMAL":
      return hexDecoding(intent.payload, hash, intent.hashFunction);
    case "PAYLOAD_ENCODING_TEXT_UTF8":
      return intent.payload === ""
        ? notDecoded("text", "it is empty", intent.payload)
        : textDecoding(intent.payload, "UTF-8", hash);
    case "PAYLOAD_ENCODING_EIP712":
      return typedDataDecoding(
        intent.payload,
        `the EIP-712 digest below is what is signed (hashFunction ${intent.hashFunction})`,
      );
    default: {
      const d = notDecoded(
        "a payload tvcwatch decodes",
        `its encoding is ${intent.encoding}`,
        intent.payload,
      );
      return { ...d, rows: [{ depth: 0, label: "hash", value: hash }, ...d.rows] };
    }
  }
}

/** Several payloads (sign_raw_payloads): each numbered, the summary counting them. */
export function decodePayloads(
  payloads: readonly string[],
  encoding: string,
  hashFunction: string,
): DecodedIntent {
  const each = payloads.map((payload) => decodePayload({ payload, encoding, hashFunction }));
  const rows: DecodedRow[] = [];
  each.forEach((d, n) => {
    rows.push({ depth: 0, label: `#${n + 1}`, value: d.what });
    rows.push(...d.rows.map((r) => ({ ...r, depth: r.depth + 1 })));
  });
  const first = each[0];
  return {
    what: `${payloads.length} payload${payloads.length === 1 ? "" : "s"} to sign`,
    outcome: each.every((d) => d.outcome === "decoded")
      ? "decoded"
      : each.every((d) => d.outcome === "not-decoded")
        ? "not-decoded"
        : "partly",
    summary:
      payloads.length === 1 && first
        ? first.summary
        : summaryOf(`signs ${payloads.length} payloads (each decoded below)`),
    rows,
    json: { payloads: each.map((d) => d.json) },
  };
}

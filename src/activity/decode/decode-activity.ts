/**
 * The one entry point of decoding: what an activity asks to sign, decoded with the ecosystems'
 * own libraries. sign_transaction (Ethereum, Solana; other chains said not decoded, the raw value
 * whole), sol_send_transaction, eth_send_transaction's call data, and sign_raw_payload(s). The
 * libraries (viem, @solana/kit) are imported only when an activity needs them, so no other command
 * waits for them; the organization's ABIs and IDLs are read only for a call that needs one. Any
 * other activity has nothing to decode (undefined). The CLI, the dashboard and bundles call this.
 */
import type { Activity } from "../../api/schemas.js";
import { intentBody } from "../intent-summary.js";
import { type InterfaceSource, NO_INTERFACES } from "./contract-interfaces.js";
import { type DecodedIntent, notDecoded, reasonOf, summaryOf } from "./decoded-intent.js";

export interface DecodeOptions {
  /** The organization's ABIs and IDLs, asked only when a call or a program needs one. */
  interfaces?: InterfaceSource | undefined;
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

type Body = Record<string, unknown>;

const TRANSACTION_TYPES = new Set([
  "ACTIVITY_TYPE_SIGN_TRANSACTION",
  "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
]);
const SOL_SEND_TYPES = new Set([
  "ACTIVITY_TYPE_SOL_SEND_TRANSACTION",
  "ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2",
]);
const ETH_SEND_TYPES = new Set([
  "ACTIVITY_TYPE_ETH_SEND_TRANSACTION",
  "ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2",
]);
const PAYLOAD_TYPES = new Set([
  "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD",
  "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
]);
const PAYLOADS_TYPE = "ACTIVITY_TYPE_SIGN_RAW_PAYLOADS";

/** Whether an activity's type carries something to decode (a transaction, a payload). */
export function hasDecoding(activity: Pick<Activity, "type">): boolean {
  const t = activity.type;
  return (
    TRANSACTION_TYPES.has(t) ||
    SOL_SEND_TYPES.has(t) ||
    ETH_SEND_TYPES.has(t) ||
    PAYLOAD_TYPES.has(t) ||
    t === PAYLOADS_TYPE
  );
}

function bodyOf(activity: Activity): Body | undefined {
  const body = intentBody(activity.intent);
  return body !== null && typeof body === "object" && !Array.isArray(body)
    ? (body as Body)
    : undefined;
}

/**
 * The activity's intent decoded; undefined when its type has nothing to decode. Never rejects:
 * what cannot be read is said in the decoding, in one line, with the raw value whole.
 */
export async function decodeActivity(
  activity: Activity,
  options: DecodeOptions = {},
): Promise<DecodedIntent | undefined> {
  if (!hasDecoding(activity)) return undefined;
  try {
    return await decodeIntent(activity, options);
  } catch (err) {
    return notDecoded("decodable", reasonOf(err), JSON.stringify(activity.intent));
  }
}

async function decodeIntent(activity: Activity, options: DecodeOptions): Promise<DecodedIntent> {
  const body = bodyOf(activity);
  if (!body)
    return notDecoded(
      "an intent with fields",
      "its intent is not an object",
      JSON.stringify(activity.intent),
    );
  const interfaces = async (needed: boolean) =>
    needed && options.interfaces ? await options.interfaces() : NO_INTERFACES;
  const t = activity.type;
  if (TRANSACTION_TYPES.has(t) || SOL_SEND_TYPES.has(t)) {
    const unsigned = str(body.unsignedTransaction);
    const chain = SOL_SEND_TYPES.has(t) ? "TRANSACTION_TYPE_SOLANA" : str(body.type);
    if (unsigned === undefined) {
      return notDecoded(
        "a transaction",
        "the intent has no unsignedTransaction",
        JSON.stringify(body),
      );
    }
    if (chain === "TRANSACTION_TYPE_ETHEREUM") {
      const eth = await import("./ethereum.js");
      return eth.decodeEthereumTransaction(
        unsigned,
        await interfaces(eth.needsInterfaces(unsigned)),
      );
    }
    if (chain === "TRANSACTION_TYPE_SOLANA") {
      const sol = await import("./solana.js");
      const decoded = sol.decodeSolanaTransaction(
        unsigned,
        await interfaces(sol.needsIdl(unsigned)),
      );
      return SOL_SEND_TYPES.has(t) ? withSendRows(decoded, body) : decoded;
    }
    return {
      ...notDecoded(
        `a transaction tvcwatch decodes`,
        `it is ${chain ?? "of no type"}; tvcwatch decodes Ethereum and Solana transactions`,
        unsigned,
      ),
      summary: summaryOf(
        `signs a ${chain?.replace(/^TRANSACTION_TYPE_/, "") ?? "untyped"} transaction (not decoded)`,
      ),
    };
  }
  if (ETH_SEND_TYPES.has(t)) {
    const eth = await import("./eth-send.js");
    return eth.decodeEthSend(body, options.interfaces);
  }
  const raw = await import("./raw-payload.js");
  const encoding = str(body.encoding) ?? "";
  const hashFunction = str(body.hashFunction) ?? "";
  if (t === PAYLOADS_TYPE) {
    const payloads = Array.isArray(body.payloads)
      ? body.payloads.filter((p) => typeof p === "string")
      : [];
    return raw.decodePayloads(payloads, encoding, hashFunction);
  }
  return raw.decodePayload({ payload: str(body.payload) ?? "", encoding, hashFunction });
}

/** sol_send_transaction's own fields: the network and who pays the fee. */
function withSendRows(decoded: DecodedIntent, body: Body): DecodedIntent {
  const caip2 = str(body.caip2);
  const sponsor = body.sponsor === true;
  return {
    ...decoded,
    rows: [
      ...(caip2 ? [{ depth: 0, label: "network", value: caip2 }] : []),
      {
        depth: 0,
        label: "sponsor",
        value: sponsor
          ? "yes: Turnkey's Gas Station pays the fee"
          : "no: the fee payer pays the fee",
      },
      ...decoded.rows,
    ],
    json: { ...decoded.json, caip2: caip2 ?? null, sponsor },
  };
}

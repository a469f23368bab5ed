/**
 * eth_send_transaction: Turnkey builds the transaction from the intent's fields, so what is
 * decoded is those fields (the chain from its CAIP-2 id, the value in ETH and wei, gas and fees)
 * and the call data, with the organization's ABI or as an ERC-20 call (./ethereum.ts).
 */
import { formatEther, type Hex } from "viem";
import { type InterfaceSource, NO_INTERFACES } from "./contract-interfaces.js";
import {
  type DecodedIntent,
  type DecodedRow,
  notDecoded,
  type SummaryPart,
  summaryOf,
} from "./decoded-intent.js";
import { ether, etherAndWei, gwei } from "./eth-amounts.js";
import { asHex, chainText, decodeCallData } from "./ethereum.js";

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

function wei(text: string | undefined): bigint | undefined {
  if (text === undefined || !/^\d{1,78}$/.test(text)) return undefined;
  return BigInt(text);
}

export async function decodeEthSend(
  body: Record<string, unknown>,
  source: InterfaceSource | undefined,
): Promise<DecodedIntent> {
  const to = str(body.to);
  const caip2 = str(body.caip2);
  const chainId = caip2 && /^eip155:\d+$/.test(caip2) ? Number(caip2.slice(7)) : undefined;
  if (!to || !/^0x[0-9a-fA-F]{40}$/.test(to)) {
    return notDecoded(
      "an Ethereum transaction",
      "its `to` is not an address",
      JSON.stringify(body),
    );
  }
  const value = wei(str(body.value)) ?? 0n;
  const rows: DecodedRow[] = [
    {
      depth: 0,
      label: "chain",
      value: chainId === undefined ? (caip2 ?? "not given") : chainText(chainId),
    },
    { depth: 0, label: "from", value: str(body.from) ?? "not given" },
    { depth: 0, label: "to", value: to },
    { depth: 0, label: "value", value: etherAndWei(value) },
  ];
  const nonce = str(body.nonce);
  if (nonce) rows.push({ depth: 0, label: "nonce", value: nonce });
  const gas = str(body.gasLimit);
  if (gas) rows.push({ depth: 0, label: "gas limit", value: gas });
  const fee = wei(str(body.maxFeePerGas));
  if (fee !== undefined) rows.push({ depth: 0, label: "max fee", value: `${gwei(fee)} per gas` });
  const tip = wei(str(body.maxPriorityFeePerGas));
  if (tip !== undefined)
    rows.push({ depth: 0, label: "priority fee", value: `${gwei(tip)} per gas` });
  rows.push({
    depth: 0,
    label: "sponsor",
    value: body.sponsor === true ? "yes: Turnkey's Gas Station pays the gas" : "no",
  });
  const data = asHex(str(body.data) ?? "0x") ?? ("0x" as Hex);
  const json: Record<string, unknown> = {
    chainId: chainId ?? null,
    to,
    valueWei: value.toString(),
    valueEth: formatEther(value),
  };
  let parts: SummaryPart[] = [`sends ${ether(value)} to `, { role: "to", address: to }];
  let partly = false;
  if (data.length >= 10) {
    const interfaces = source ? await source() : NO_INTERFACES;
    const call = decodeCallData(to, data, chainId, interfaces, 1);
    rows.push(...call.rows);
    Object.assign(json, call.json);
    partly = call.partly;
    parts = [...(call.summary ?? [])];
    if (value > 0n) parts.push(`, with ${ether(value)}`);
  }
  return {
    what: `Ethereum transaction Turnkey builds from these fields (eth_send_transaction)`,
    outcome: partly ? "partly" : "decoded",
    summary: summaryOf(...parts),
    rows,
    json,
  };
}

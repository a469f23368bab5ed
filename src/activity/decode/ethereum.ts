/**
 * An Ethereum transaction decoded with viem: its type (legacy, EIP-2930, EIP-1559, EIP-4844,
 * EIP-7702), the chain (named for well-known ids, from viem/chains), `to`, the value in ETH and
 * wei, the nonce, the gas limit and fees; the call data's selector and, for ERC-20 `transfer`,
 * `approve` and `transferFrom`, the token, the recipient or spender and the amount (in token
 * units where the token's decimals are known); a call to a contract whose ABI the organization
 * stores, decoded with that ABI (the function and its named arguments). Loaded only when an
 * Ethereum transaction is decoded (viem is large).
 */
import {
  type Abi,
  type AbiFunction,
  decodeFunctionData,
  erc20Abi,
  formatEther,
  getAddress,
  type Hex,
  maxUint256,
  parseTransaction,
  toFunctionSelector,
  toFunctionSignature,
} from "viem";
import * as chains from "viem/chains";
import { formatAbiItem } from "viem/utils";
import {
  type ContractInterfaces,
  ethereumInterfaceFor,
  parsedInterface,
} from "./contract-interfaces.js";
import {
  type DecodedIntent,
  type DecodedRow,
  jsonable,
  notDecoded,
  reasonOf,
  type SummaryPart,
  summaryOf,
} from "./decoded-intent.js";
import { ether, etherAndWei, gwei, tokenUnits } from "./eth-amounts.js";
import { knownToken } from "./well-known.js";

const WHAT = "an Ethereum transaction";

let chainNames: Map<number, string> | undefined;

/** The chain's name for a well-known id (viem/chains; the first of a shared id). */
export function chainName(id: number): string | undefined {
  if (!chainNames) {
    chainNames = new Map();
    for (const c of Object.values(chains) as unknown[]) {
      const chain = c as { id?: unknown; name?: unknown };
      if (
        typeof chain.id === "number" &&
        typeof chain.name === "string" &&
        !chainNames.has(chain.id)
      )
        chainNames.set(chain.id, chain.name);
    }
  }
  return chainNames.get(id);
}

/** `11155111 (Sepolia)` */
export function chainText(id: number | undefined): string {
  if (id === undefined) return "none (valid on any chain: no EIP-155 replay protection)";
  const name = chainName(id);
  return name ? `${id} (${name})` : `${id} (not a chain tvcwatch knows)`;
}

const TYPE_NAMES: Record<string, string> = {
  legacy: "legacy",
  eip2930: "EIP-2930 (access list)",
  eip1559: "EIP-1559",
  eip4844: "EIP-4844 (blob)",
  eip7702: "EIP-7702 (set code)",
};

/** The value as hex with 0x (Turnkey's unsignedTransaction comes without). */
export function asHex(text: string): Hex | undefined {
  const t = text.trim();
  const body = t.startsWith("0x") || t.startsWith("0X") ? t.slice(2) : t;
  return /^(?:[0-9a-fA-F]{2})*$/.test(body) ? (`0x${body.toLowerCase()}` as Hex) : undefined;
}

/** An address as EIP-55 writes it (viem parses them lowercase). */
export function checksummed(address: string): string {
  try {
    return getAddress(address);
  } catch {
    return address;
  }
}

export interface CallDecoding {
  rows: DecodedRow[];
  summary: SummaryPart[] | undefined;
  json: Record<string, unknown>;
  partly: boolean;
}

/** Rows of an ABI function's decoded arguments, named by the ABI. */
function argumentRows(fn: AbiFunction, args: readonly unknown[], depth: number): DecodedRow[] {
  return fn.inputs.map((input, i) => ({
    depth,
    label: input.name || `#${i + 1}`,
    value: `${argumentText(args[i])}${input.name ? "" : ` (${input.type})`}`,
  }));
}

function argumentText(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return value;
  return JSON.stringify(jsonable(value)) ?? String(value);
}

function amountText(amount: bigint, token: { symbol: string; decimals: number } | undefined) {
  if (amount === maxUint256) return `unlimited (2^256 - 1)`;
  return token
    ? `${tokenUnits(amount, token.decimals)} ${token.symbol} (${tokenUnits(amount, 0)} units, ${token.decimals} decimals)`
    : `${tokenUnits(amount, 0)} (raw: the token's decimals are not known here)`;
}

/** ERC-20 transfer, approve or transferFrom, when the data is one. */
function erc20Call(
  to: string,
  data: Hex,
  chainId: number | undefined,
  depth: number,
): CallDecoding | undefined {
  let call: ReturnType<typeof decodeFunctionData<typeof erc20Abi>>;
  try {
    call = decodeFunctionData({ abi: erc20Abi, data });
  } catch {
    return undefined;
  }
  const token = knownToken(chainId, to);
  const tokenRow: DecodedRow = {
    depth,
    label: "token",
    value: token ? `${to} (${token.symbol}, ${token.decimals} decimals)` : to,
  };
  const what = token?.symbol ?? "tokens of";
  const tokenPart: SummaryPart[] = token ? [] : [" ", { role: "token", address: to }];
  const head = (name: string): DecodedRow => ({
    depth: depth - 1,
    label: "calls",
    value: `${name} (ERC-20) ${data.slice(0, 10)}`,
  });
  switch (call.functionName) {
    case "transfer": {
      const [recipient, amount] = call.args;
      return {
        rows: [
          head("transfer(address,uint256)"),
          tokenRow,
          { depth, label: "to", value: recipient },
          { depth, label: "amount", value: amountText(amount, token) },
        ],
        summary: [
          `sends ${token ? tokenUnits(amount, token.decimals) : amount} ${what}`,
          ...tokenPart,
          " to ",
          { role: "to", address: recipient },
        ],
        json: { erc20: { function: "transfer", token: to, to: recipient, amount: String(amount) } },
        partly: false,
      };
    }
    case "approve": {
      const [spender, amount] = call.args;
      const unlimited = amount === maxUint256;
      return {
        rows: [
          head("approve(address,uint256)"),
          tokenRow,
          { depth, label: "spender", value: spender },
          { depth, label: "allowance", value: amountText(amount, token) },
        ],
        summary: [
          "lets ",
          { role: "spender", address: spender },
          ` spend ${unlimited ? "an UNLIMITED amount of" : token ? `${tokenUnits(amount, token.decimals)}` : `${amount}`} ${what}`,
          ...tokenPart,
        ],
        json: { erc20: { function: "approve", token: to, spender, amount: String(amount) } },
        partly: false,
      };
    }
    case "transferFrom": {
      const [from, recipient, amount] = call.args;
      return {
        rows: [
          head("transferFrom(address,address,uint256)"),
          tokenRow,
          { depth, label: "from", value: from },
          { depth, label: "to", value: recipient },
          { depth, label: "amount", value: amountText(amount, token) },
        ],
        summary: [
          `moves ${token ? tokenUnits(amount, token.decimals) : amount} ${what}`,
          ...tokenPart,
          " from ",
          { role: "from", address: from },
          " to ",
          { role: "to", address: recipient },
        ],
        json: {
          erc20: {
            function: "transferFrom",
            token: to,
            from,
            to: recipient,
            amount: String(amount),
          },
        },
        partly: false,
      };
    }
    default:
      return undefined;
  }
}

/** A call decoded with the ABI the organization stores for `to`, when it has one that fits. */
function storedAbiCall(
  to: string,
  data: Hex,
  interfaces: ContractInterfaces,
  depth: number,
): CallDecoding | undefined {
  const stored = ethereumInterfaceFor(interfaces, to);
  if (!stored) return undefined;
  const selector = data.slice(0, 10);
  const named = `${stored.label} (ABI stored by the organization)`;
  const parsed = parsedInterface(stored);
  const abi = "value" in parsed ? abiOf(parsed.value) : undefined;
  if (!abi) {
    const why = "error" in parsed ? parsed.error : "its stored interface is not an ABI";
    return {
      rows: [
        { depth: depth - 1, label: "calls", value: `${selector} on ${named}: not decoded, ${why}` },
        { depth, label: "data", value: data },
      ],
      summary: ["calls ", selector, " on ", stored.label, " ", { role: "contract", address: to }],
      json: { call: { selector, interface: stored.label, decoded: false, reason: why } },
      partly: true,
    };
  }
  try {
    const call = decodeFunctionData({ abi, data });
    const fn = abi.find(
      (item): item is AbiFunction =>
        item.type === "function" && toFunctionSelector(item) === selector,
    );
    if (!fn) throw new Error(`no function with selector ${selector}`);
    const args = (call.args ?? []) as readonly unknown[];
    return {
      rows: [
        {
          depth: depth - 1,
          label: "calls",
          value: `${fn.name} on ${named} ${selector}\n${formatAbiItem(fn, { includeName: true })}`,
        },
        { depth, label: "contract", value: to },
        ...argumentRows(fn, args, depth),
      ],
      summary: [
        `calls ${fn.name}(${fn.inputs.map((i) => i.name || i.type).join(", ")}) on ${stored.label} `,
        { role: "contract", address: to },
      ],
      json: {
        call: {
          selector,
          interface: stored.label,
          function: fn.name,
          signature: toFunctionSignature(fn),
          args: Object.fromEntries(
            fn.inputs.map((input, i) => [input.name || `#${i + 1}`, jsonable(args[i])]),
          ),
        },
      },
      partly: false,
    };
  } catch (err) {
    const why = reasonOf(err);
    return {
      rows: [
        {
          depth: depth - 1,
          label: "calls",
          value: `${selector} on ${named}: not decoded with it (${why})`,
        },
        { depth, label: "data", value: data },
      ],
      summary: ["calls ", selector, " on ", stored.label, " ", { role: "contract", address: to }],
      json: { call: { selector, interface: stored.label, decoded: false, reason: why } },
      partly: true,
    };
  }
}

/** An ABI from its stored JSON: an array, or `{abi: [...]}` as Hardhat and Foundry write it. */
function abiOf(value: unknown): Abi | undefined {
  const list = Array.isArray(value)
    ? value
    : value !== null && typeof value === "object" && Array.isArray((value as { abi?: unknown }).abi)
      ? (value as { abi: unknown[] }).abi
      : undefined;
  if (!list) return undefined;
  return list.filter(
    (item): item is Abi[number] =>
      item !== null &&
      typeof item === "object" &&
      typeof (item as { type?: unknown }).type === "string",
  );
}

/**
 * What call data does, at `depth` (rows under `calls`): the stored ABI's function, else an
 * ERC-20 call, else the selector alone and the data whole.
 */
export function decodeCallData(
  to: string,
  data: Hex,
  chainId: number | undefined,
  interfaces: ContractInterfaces,
  depth = 1,
): CallDecoding {
  const stored = storedAbiCall(to, data, interfaces, depth);
  if (stored && !stored.partly) return stored;
  const erc20 = erc20Call(to, data, chainId, depth);
  if (erc20) return erc20;
  if (stored) return stored;
  const selector = data.length >= 10 ? data.slice(0, 10) : data;
  const none = interfaces.note ?? `the organization stores no ABI for ${to}`;
  return {
    rows: [
      {
        depth: depth - 1,
        label: "calls",
        value: `selector ${selector}: not decoded (${none}; not an ERC-20 call)`,
      },
      { depth, label: "data", value: `${data} (${(data.length - 2) / 2} bytes)` },
    ],
    summary: ["calls ", selector, " on ", { role: "contract", address: to }],
    json: { call: { selector, decoded: false, reason: none } },
    partly: true,
  };
}

/** Whether call data needs the organization's ABIs to be read (a call to a contract). */
export function needsInterfaces(unsigned: string): boolean {
  const hex = asHex(unsigned);
  if (!hex) return false;
  try {
    const tx = parseTransaction(hex);
    return tx.to !== undefined && tx.to !== null && (tx.data?.length ?? 0) >= 10;
  } catch {
    return false;
  }
}

/** An Ethereum unsigned transaction (hex, with or without 0x) decoded. */
export function decodeEthereumTransaction(
  unsigned: string,
  interfaces: ContractInterfaces,
): DecodedIntent {
  const hex = asHex(unsigned);
  if (!hex || hex === "0x") {
    return notDecoded(WHAT, hex ? "it is empty" : "it is not hexadecimal", unsigned);
  }
  let tx: ReturnType<typeof parseTransaction>;
  try {
    tx = parseTransaction(hex);
  } catch (err) {
    return notDecoded(WHAT, reasonOf(err), unsigned);
  }
  const kind = tx.type ?? "legacy";
  const type = TYPE_NAMES[kind] ?? kind;
  const chainId = tx.chainId;
  const rows: DecodedRow[] = [];
  const json: Record<string, unknown> = {
    type: kind,
    chainId: chainId ?? null,
    chain: chainId === undefined ? null : (chainName(chainId) ?? null),
  };
  const to = tx.to ? checksummed(tx.to) : undefined;
  const value = tx.value ?? 0n;
  rows.push({ depth: 0, label: "chain", value: chainText(chainId) });
  rows.push({
    depth: 0,
    label: "to",
    value: to ?? "nobody: it creates a contract",
  });
  rows.push({ depth: 0, label: "value", value: etherAndWei(value) });
  json.to = to ?? null;
  json.valueWei = value.toString();
  json.valueEth = formatEther(value);
  rows.push({ depth: 0, label: "nonce", value: String(tx.nonce ?? 0) });
  json.nonce = tx.nonce ?? 0;
  const gas = tx.gas;
  rows.push({ depth: 0, label: "gas limit", value: gas === undefined ? "not set" : String(gas) });
  json.gas = gas?.toString() ?? null;
  rows.push(...feeRows(tx, gas, json));
  const data = tx.data;
  let parts: SummaryPart[];
  let partly = false;
  if (to === undefined) {
    const size = data ? (data.length - 2) / 2 : 0;
    rows.push({ depth: 0, label: "code", value: `${size} bytes of contract code` });
    parts = [`deploys a contract (${size} bytes of code)`];
    if (value > 0n) parts.push(`, with ${ether(value)}`);
  } else if (data && data.length > 2) {
    const call = decodeCallData(to, data, chainId, interfaces, 1);
    rows.push(...call.rows);
    Object.assign(json, call.json);
    partly = call.partly;
    parts = [...(call.summary ?? [])];
    if (value > 0n) parts.push(`, with ${ether(value)}`);
  } else {
    parts = [`sends ${ether(value)} to `, { role: "to", address: to }];
  }
  const delegation = "authorizationList" in tx ? tx.authorizationList?.[0] : undefined;
  if (delegation) {
    parts = [
      "sets the account's code to ",
      { role: "code", address: checksummed(delegation.address) },
      "; ",
      ...parts,
    ];
  }
  const summary = summaryOf(...parts);
  rows.push(...extraRows(tx, json));
  if ("r" in tx && tx.r !== undefined) {
    rows.push({ depth: 0, label: "signature", value: "it carries one already (r, s, v are set)" });
  }
  return {
    what: `Ethereum transaction, ${type}`,
    outcome: partly ? "partly" : "decoded",
    summary,
    rows,
    json,
  };
}

function feeRows(
  tx: ReturnType<typeof parseTransaction>,
  gas: bigint | undefined,
  json: Record<string, unknown>,
): DecodedRow[] {
  const most = (perGas: bigint) => (gas === undefined ? "" : `; at most ${ether(perGas * gas)}`);
  if (tx.maxFeePerGas !== undefined) {
    json.maxFeePerGas = tx.maxFeePerGas.toString();
    json.maxPriorityFeePerGas = tx.maxPriorityFeePerGas?.toString() ?? null;
    return [
      {
        depth: 0,
        label: "max fee",
        value: `${gwei(tx.maxFeePerGas)} per gas${most(tx.maxFeePerGas)}`,
      },
      {
        depth: 0,
        label: "priority fee",
        value:
          tx.maxPriorityFeePerGas === undefined
            ? "not set"
            : `${gwei(tx.maxPriorityFeePerGas)} per gas`,
      },
    ];
  }
  if (tx.gasPrice !== undefined) {
    json.gasPrice = tx.gasPrice.toString();
    return [{ depth: 0, label: "gas price", value: `${gwei(tx.gasPrice)}${most(tx.gasPrice)}` }];
  }
  return [{ depth: 0, label: "fees", value: "not set" }];
}

/** Access list, blobs, authorizations: what the typed transactions add. */
function extraRows(
  tx: ReturnType<typeof parseTransaction>,
  json: Record<string, unknown>,
): DecodedRow[] {
  const rows: DecodedRow[] = [];
  const accessList = "accessList" in tx ? tx.accessList : undefined;
  if (accessList && accessList.length > 0) {
    json.accessList = accessList;
    rows.push({
      depth: 0,
      label: "access list",
      value: accessList
        .map((a) => `${checksummed(a.address)} (${a.storageKeys.length} storage keys)`)
        .join("\n"),
    });
  }
  if ("blobVersionedHashes" in tx && tx.blobVersionedHashes) {
    json.blobVersionedHashes = tx.blobVersionedHashes;
    rows.push({ depth: 0, label: "blobs", value: tx.blobVersionedHashes.join("\n") });
    if ("maxFeePerBlobGas" in tx && tx.maxFeePerBlobGas !== undefined) {
      json.maxFeePerBlobGas = tx.maxFeePerBlobGas.toString();
      rows.push({
        depth: 0,
        label: "blob fee",
        value: `${gwei(tx.maxFeePerBlobGas)} per blob gas`,
      });
    }
  }
  if ("authorizationList" in tx && tx.authorizationList) {
    json.authorizationList = jsonable(tx.authorizationList);
    for (const a of tx.authorizationList) {
      rows.push({
        depth: 0,
        label: "delegates",
        value: `the signer's account to code at ${checksummed(a.address)}, on chain ${a.chainId === 0 ? "any (0)" : chainText(a.chainId)}, nonce ${a.nonce}`,
      });
    }
  }
  return rows;
}

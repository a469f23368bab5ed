/**
 * A Solana transaction decoded with @solana/kit and its program clients: the wire transaction
 * (hex, as sign_transaction sends it, or base64, as sol_send_transaction does) read by kit's
 * transaction and message decoders, legacy, v0 or v1; the fee payer, the signers, the recent
 * blockhash (or the durable nonce), and the lookup tables of a v0 message, whose accounts are
 * said as such (their addresses are in the table, not in the transaction). Each instruction named
 * and decoded by its program's client: System (transfers in SOL and lamports), SPL Token and
 * Token-2022 (transfer and transferChecked with amount, mint and decimals, every other
 * instruction by name), Associated Token Account, Compute Budget and Memo (its text). Other
 * programs by id, and named by the IDL the organization stores for them (instruction and
 * accounts by name, arguments where their types are simple). Loaded only when a Solana
 * transaction is decoded.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import {
  type Address,
  addDecoderSizePrefix,
  type CompiledTransactionMessage,
  type Decoder,
  getAddressDecoder,
  getBase16Encoder,
  getBase64Encoder,
  getBooleanDecoder,
  getCompiledTransactionMessageDecoder,
  getI8Decoder,
  getI16Decoder,
  getI32Decoder,
  getI64Decoder,
  getI128Decoder,
  getInstructionsFromCompiledTransactionMessage,
  getStructDecoder,
  getTransactionDecoder,
  getU8Decoder,
  getU16Decoder,
  getU32Decoder,
  getU64Decoder,
  getU128Decoder,
  getUtf8Decoder,
} from "@solana/kit";
import {
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  ComputeBudgetInstruction,
  parseComputeBudgetInstruction,
} from "@solana-program/compute-budget";
import { MEMO_PROGRAM_ADDRESS, parseAddMemoInstruction } from "@solana-program/memo";
import {
  parseSystemInstruction,
  SYSTEM_PROGRAM_ADDRESS,
  SystemInstruction,
} from "@solana-program/system";
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  AssociatedTokenInstruction,
  parseAssociatedTokenInstruction,
  parseTokenInstruction,
  TOKEN_PROGRAM_ADDRESS,
  TokenInstruction,
} from "@solana-program/token";
import {
  parseToken2022Instruction,
  TOKEN_2022_PROGRAM_ADDRESS,
  Token2022Instruction,
} from "@solana-program/token-2022";
import { formatAtomic } from "../../text/token-amount.js";
import {
  type ContractInterfaces,
  parsedInterface,
  solanaInterfaceFor,
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
import { solanaErrorText } from "./solana-error.js";
import { knownMint } from "./well-known.js";

/** Why a decoding stopped, in one line of words (kit's errors by their code's name). */
const why = (err: unknown): string => {
  const text = solanaErrorText(err);
  return text === undefined ? reasonOf(err) : reasonOf(new Error(text));
};

const WHAT = "a Solana transaction";
/** The most bytes of an undecoded instruction's data shown in hex (the count says the rest). */
const MAX_DATA_SHOWN = 1024;

type CompiledMessage = CompiledTransactionMessage & { lifetimeToken?: string };

/** The wire bytes of hex (with or without 0x) or base64 text; undefined when it is neither. */
export function wireBytes(text: string): { bytes: Uint8Array; encoding: string } | undefined {
  const t = text.trim();
  const hex = t.startsWith("0x") || t.startsWith("0X") ? t.slice(2) : t;
  if (hex.length > 0 && hex.length % 2 === 0 && /^[0-9a-fA-F]+$/.test(hex)) {
    return { bytes: getBase16Encoder().encode(hex.toLowerCase()) as Uint8Array, encoding: "hex" };
  }
  if (t.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(t) && t.length % 4 === 0) {
    try {
      return { bytes: getBase64Encoder().encode(t) as Uint8Array, encoding: "base64" };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

interface Read {
  message: CompiledMessage;
  /** Signature slots, by signer, and whether each is filled. */
  signatures: { address: string; signed: boolean }[];
  /** Read as a bare message (no signature section). */
  bare: boolean;
}

const byteCount = (n: number) => `${n} byte${n === 1 ? "" : "s"}`;

/** The compiled message of a wire transaction (or of a bare message), checked to its last byte. */
function readTransaction(bytes: Uint8Array): Read {
  try {
    const [tx, end] = getTransactionDecoder().read(bytes, 0);
    if (end !== bytes.length)
      throw new Error(`${byteCount(bytes.length - end)} after the transaction`);
    const [message, messageEnd] = getCompiledTransactionMessageDecoder().read(tx.messageBytes, 0);
    if (messageEnd !== tx.messageBytes.length)
      throw new Error(`${byteCount(tx.messageBytes.length - messageEnd)} after the message`);
    return {
      message: message as CompiledMessage,
      signatures: Object.entries(tx.signatures).map(([address, sig]) => ({
        address,
        signed: sig?.some((b) => b !== 0) === true,
      })),
      bare: false,
    };
  } catch (err) {
    // A bare message (what some callers send): read only when it is one to its last byte.
    try {
      const [message, end] = getCompiledTransactionMessageDecoder().read(bytes, 0);
      if (end === bytes.length && message.staticAccounts.length > 0) {
        return { message: message as CompiledMessage, signatures: [], bare: true };
      }
    } catch {
      // the transaction's error says more
    }
    throw err;
  }
}

/** A lookup-table account stands for itself by this placeholder until it is said. */
const LOOKUP = "lookup-table-account:";

interface Accounts {
  loaded: { writable: Address[]; readonly: Address[] };
  /** Placeholder -> how it is said. */
  said: Map<string, string>;
}

/** Placeholders for the accounts a v0 message loads from its lookup tables. */
function lookupAccounts(message: CompiledMessage): Accounts {
  const said = new Map<string, string>();
  const loaded = { writable: [] as Address[], readonly: [] as Address[] };
  const lookups = "addressTableLookups" in message ? (message.addressTableLookups ?? []) : [];
  for (const [writable, key] of [
    [true, "writableIndexes"],
    [false, "readonlyIndexes"],
  ] as const) {
    for (const lookup of lookups) {
      for (const index of lookup[key]) {
        const placeholder = `${LOOKUP}${lookup.lookupTableAddress}:${index}:${writable}`;
        said.set(
          placeholder,
          `entry ${index} of lookup table ${lookup.lookupTableAddress} (${writable ? "writable" : "read-only"}; its address is in the table, not in the transaction)`,
        );
        (writable ? loaded.writable : loaded.readonly).push(placeholder as Address);
      }
    }
  }
  return { loaded, said };
}

interface InstructionView {
  programAddress: string;
  accounts?: readonly { address: string; role: number }[];
  data?: Uint8Array | { readonly [n: number]: number; length: number };
}

interface Decoded {
  /** `System: TransferSol` */
  name: string;
  rows: DecodedRow[];
  summary?: SummaryPart[];
  /** What moved value (for the summary): transfers come first. */
  moves?: boolean;
  json: Record<string, unknown>;
  partly?: boolean;
}

const PROGRAMS: Record<string, string> = {
  [SYSTEM_PROGRAM_ADDRESS]: "System",
  [TOKEN_PROGRAM_ADDRESS]: "Token",
  [TOKEN_2022_PROGRAM_ADDRESS]: "Token-2022",
  [ASSOCIATED_TOKEN_PROGRAM_ADDRESS]: "Associated Token Account",
  [COMPUTE_BUDGET_PROGRAM_ADDRESS]: "Compute Budget",
  [MEMO_PROGRAM_ADDRESS]: "Memo",
};

const sol = (lamports: bigint) =>
  `${formatAtomic(lamports, 9)} SOL (${formatAtomic(lamports, 0)} lamports)`;

function bytesOf(data: InstructionView["data"]): Uint8Array {
  return data instanceof Uint8Array
    ? data
    : new Uint8Array(data ? Array.from(data as ArrayLike<number>) : []);
}

function hexOf(bytes: Uint8Array): string {
  const shown = bytes.subarray(0, MAX_DATA_SHOWN);
  const hex = Array.from(shown, (b) => b.toString(16).padStart(2, "0")).join("");
  return bytes.length > MAX_DATA_SHOWN
    ? `${hex}… (first ${MAX_DATA_SHOWN} of ${bytes.length} bytes)`
    : `${hex} (${bytes.length} bytes)`;
}

/** The parsed accounts and data of a program client's parse, as rows (amounts said by caller). */
function parsedRows(
  parsed: { accounts?: Record<string, unknown>; data?: Record<string, unknown> },
  say: (address: string) => string,
  skip: readonly string[] = [],
): DecodedRow[] {
  const rows: DecodedRow[] = [];
  for (const [name, meta] of Object.entries(parsed.accounts ?? {})) {
    const address = (meta as { address?: unknown } | undefined)?.address;
    if (typeof address === "string") rows.push({ depth: 2, label: name, value: say(address) });
  }
  for (const [name, value] of Object.entries(parsed.data ?? {})) {
    if (name === "discriminator" || skip.includes(name)) continue;
    rows.push({ depth: 2, label: name, value: valueText(value) });
  }
  return rows;
}

function valueText(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return value;
  if (value !== null && typeof value === "object" && "__option" in value) {
    const o = value as { __option: string; value?: unknown };
    return o.__option === "Some" ? valueText(o.value) : "none";
  }
  return JSON.stringify(jsonable(value)) ?? String(value);
}

function accountOf(
  parsed: { accounts?: Record<string, unknown> },
  name: string,
): string | undefined {
  const a = parsed.accounts?.[name] as { address?: unknown } | undefined;
  return typeof a?.address === "string" ? a.address : undefined;
}

type Say = (address: string) => string;
/** A summary's address part, or a lookup-table entry said in words. */
type Part = (role: string, address: string) => SummaryPart;

function systemInstruction(ix: InstructionView, say: Say, part: Part): Decoded {
  const parsed = parseSystemInstruction(ix as never) as {
    instructionType: SystemInstruction;
    accounts: Record<string, unknown>;
    data: Record<string, unknown>;
  };
  const kind = SystemInstruction[parsed.instructionType] ?? String(parsed.instructionType);
  const lamports =
    typeof parsed.data.lamports === "bigint" ? parsed.data.lamports : parsed.data.amount;
  if (
    (parsed.instructionType === SystemInstruction.TransferSol ||
      parsed.instructionType === SystemInstruction.TransferSolWithSeed) &&
    typeof lamports === "bigint"
  ) {
    const to = accountOf(parsed, "destination") ?? "";
    return {
      name: `System: ${kind}`,
      rows: [
        { depth: 2, label: "amount", value: sol(lamports) },
        ...parsedRows(parsed, say, ["amount", "lamports"]),
      ],
      summary: [`sends ${formatAtomic(lamports, 9)} SOL to `, part("to", to)],
      moves: true,
      json: {
        instruction: kind,
        lamports: lamports.toString(),
        accounts: accountJson(parsed, say),
      },
    };
  }
  const rows = parsedRows(parsed, say, ["lamports"]);
  if (typeof parsed.data.lamports === "bigint") {
    rows.unshift({ depth: 2, label: "lamports", value: sol(parsed.data.lamports) });
  }
  return {
    name: `System: ${kind}`,
    rows,
    json: { instruction: kind, data: jsonable(parsed.data), accounts: accountJson(parsed, say) },
  };
}

function accountJson(parsed: { accounts?: Record<string, unknown> }, say: Say) {
  return Object.fromEntries(
    Object.entries(parsed.accounts ?? {}).flatMap(([name, meta]) => {
      const address = (meta as { address?: unknown } | undefined)?.address;
      return typeof address === "string" ? [[name, say(address)]] : [];
    }),
  );
}

/** Token and Token-2022: transfers with amounts in token units where the decimals are known. */
function tokenInstruction(
  ix: InstructionView,
  say: Say,
  part: Part,
  program: "Token" | "Token-2022",
): Decoded {
  const parsed = (
    program === "Token"
      ? parseTokenInstruction(ix as never)
      : parseToken2022Instruction(ix as never)
  ) as {
    instructionType: number;
    accounts: Record<string, unknown>;
    data: Record<string, unknown>;
  };
  const names = (program === "Token" ? TokenInstruction : Token2022Instruction) as Record<
    number,
    string
  >;
  const kind = names[parsed.instructionType] ?? String(parsed.instructionType);
  const amount = parsed.data.amount;
  const json = {
    instruction: kind,
    data: jsonable(parsed.data),
    accounts: accountJson(parsed, say),
  };
  if (typeof amount !== "bigint")
    return { name: `${program}: ${kind}`, rows: parsedRows(parsed, say), json };
  const mint = accountOf(parsed, "mint");
  const given = typeof parsed.data.decimals === "number" ? parsed.data.decimals : undefined;
  const known = mint ? knownMint(mint) : undefined;
  const decimals = given ?? known?.decimals;
  const symbol =
    known && (given === undefined || given === known.decimals) ? ` ${known.symbol}` : "";
  const units =
    decimals === undefined
      ? `${formatAtomic(amount, 0)} (raw: the mint and its decimals are not in this instruction)`
      : `${formatAtomic(amount, decimals)}${symbol} (${formatAtomic(amount, 0)} units, ${decimals} decimals)`;
  const rows = [
    { depth: 2, label: "amount", value: units },
    ...parsedRows(parsed, say, ["amount", "decimals"]),
  ];
  const transfer = /^Transfer/.test(kind);
  const destination = accountOf(parsed, "destination");
  if (!transfer || !destination) return { name: `${program}: ${kind}`, rows, json };
  const howMuch =
    decimals === undefined
      ? `${formatAtomic(amount, 0)} raw units of a token`
      : `${formatAtomic(amount, decimals)}${symbol || " tokens"}`;
  const ofMint: SummaryPart[] = mint && !symbol ? [" (mint ", part("mint", mint), ")"] : [];
  return {
    name: `${program}: ${kind}`,
    rows,
    summary: [`sends ${howMuch}`, ...ofMint, " to token account ", part("to", destination)],
    moves: true,
    json,
  };
}

function associatedTokenInstruction(ix: InstructionView, say: Say, part: Part): Decoded {
  // The program's first form takes no data: it means Create (discriminator 0).
  const data = bytesOf(ix.data);
  const view = data.length === 0 ? { ...ix, data: new Uint8Array([0]) } : ix;
  const parsed = parseAssociatedTokenInstruction(view as never) as {
    instructionType: number;
    accounts: Record<string, unknown>;
    data: Record<string, unknown>;
  };
  const kind =
    (AssociatedTokenInstruction as Record<number, string>)[parsed.instructionType] ??
    String(parsed.instructionType);
  const owner = accountOf(parsed, "wallet") ?? accountOf(parsed, "owner");
  const created = /^CreateAssociatedToken/.test(kind);
  return {
    name: `Associated Token Account: ${kind}`,
    rows: parsedRows(parsed, say),
    ...(created && owner
      ? { summary: ["creates a token account for ", part("owner", owner)] }
      : {}),
    json: { instruction: kind, accounts: accountJson(parsed, say) },
  };
}

function computeBudgetInstruction(ix: InstructionView, say: Say): Decoded {
  const parsed = parseComputeBudgetInstruction(ix as never) as {
    instructionType: number;
    data: Record<string, unknown>;
    accounts?: Record<string, unknown>;
  };
  const kind = ComputeBudgetInstruction[parsed.instructionType] ?? String(parsed.instructionType);
  const rows = parsedRows(parsed, say);
  if (parsed.instructionType === ComputeBudgetInstruction.SetComputeUnitPrice) {
    const micro = parsed.data.microLamports;
    if (typeof micro === "bigint") {
      rows.splice(0, rows.length, {
        depth: 2,
        label: "price",
        value: `${micro} micro-lamports per compute unit (priority fee)`,
      });
    }
  }
  return {
    name: `Compute Budget: ${kind}`,
    rows,
    json: { instruction: kind, data: jsonable(parsed.data) },
  };
}

function memoInstruction(ix: InstructionView): Decoded {
  const parsed = parseAddMemoInstruction(ix as never) as { data: { memo: string } };
  const text = parsed.data.memo;
  return {
    name: "Memo",
    rows: [{ depth: 2, label: "text", value: text === "" ? '""' : text }],
    json: { instruction: "AddMemo", memo: text },
  };
}

interface IdlInstruction {
  name: string;
  discriminator: number[];
  accounts: string[];
  args: { name: string; type: unknown }[];
}

/** The instructions an IDL lists, with their discriminators (Anchor 0.30+, else as Anchor computes them). */
function idlInstructions(idl: unknown): {
  name: string | undefined;
  instructions: IdlInstruction[];
} {
  if (idl === null || typeof idl !== "object") return { name: undefined, instructions: [] };
  const o = idl as { name?: unknown; metadata?: { name?: unknown }; instructions?: unknown };
  const name =
    typeof o.metadata?.name === "string"
      ? o.metadata.name
      : typeof o.name === "string"
        ? o.name
        : undefined;
  const list = Array.isArray(o.instructions) ? o.instructions : [];
  const flat = (accounts: unknown): string[] =>
    Array.isArray(accounts)
      ? accounts.flatMap((a: { name?: unknown; accounts?: unknown }) =>
          Array.isArray(a?.accounts)
            ? flat(a.accounts)
            : [typeof a?.name === "string" ? a.name : "?"],
        )
      : [];
  const instructions = list.flatMap((raw: unknown): IdlInstruction[] => {
    const i = raw as {
      name?: unknown;
      discriminator?: unknown;
      accounts?: unknown;
      args?: unknown;
    };
    if (typeof i?.name !== "string") return [];
    const discriminator =
      Array.isArray(i.discriminator) &&
      i.discriminator.every((b) => Number.isInteger(b) && b >= 0 && b < 256)
        ? (i.discriminator as number[])
        : [...sha256(new TextEncoder().encode(`global:${snake(i.name)}`)).slice(0, 8)];
    const args = Array.isArray(i.args)
      ? i.args.flatMap((a: { name?: unknown; type?: unknown }) =>
          typeof a?.name === "string" ? [{ name: a.name, type: a.type }] : [],
        )
      : [];
    return [{ name: i.name, discriminator, accounts: flat(i.accounts), args }];
  });
  return { name, instructions };
}

/** camelCase -> snake_case, as Anchor names instructions in their discriminators. */
function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** A kit decoder for an IDL argument's type, for the simple types; undefined for the others. */
function argDecoder(type: unknown): Decoder<unknown> | undefined {
  const simple: Record<string, () => Decoder<unknown>> = {
    u8: getU8Decoder,
    u16: getU16Decoder,
    u32: getU32Decoder,
    u64: getU64Decoder,
    u128: getU128Decoder,
    i8: getI8Decoder,
    i16: getI16Decoder,
    i32: getI32Decoder,
    i64: getI64Decoder,
    i128: getI128Decoder,
    bool: getBooleanDecoder,
    pubkey: getAddressDecoder,
    publicKey: getAddressDecoder,
    string: () => addDecoderSizePrefix(getUtf8Decoder(), getU32Decoder()),
  };
  return typeof type === "string" && Object.hasOwn(simple, type) ? simple[type]?.() : undefined;
}

/** An instruction to a program whose IDL the organization stores, named by that IDL. */
function idlInstruction(
  ix: InstructionView,
  programId: string,
  interfaces: ContractInterfaces,
  say: Say,
): Decoded | undefined {
  const stored = solanaInterfaceFor(interfaces, programId);
  if (!stored) return undefined;
  const parsed = parsedInterface(stored);
  const idl =
    "value" in parsed ? idlInstructions(parsed.value) : { name: undefined, instructions: [] };
  const program = `${stored.label}${idl.name ? ` (IDL ${idl.name})` : ""}`;
  const data = bytesOf(ix.data);
  const found = idl.instructions.find(
    (i) => i.discriminator.length > 0 && i.discriminator.every((b, n) => data[n] === b),
  );
  if (!found) {
    const why =
      "error" in parsed ? parsed.error : "no instruction of its IDL has this data's discriminator";
    return {
      name: `${program}: not decoded (${why})`,
      rows: [
        { depth: 2, label: "program", value: programId },
        { depth: 2, label: "data", value: hexOf(data) },
        ...accountRows(ix, say),
      ],
      json: { program: programId, interface: stored.label, decoded: false, reason: why },
      partly: true,
    };
  }
  const rows: DecodedRow[] = [{ depth: 2, label: "program", value: programId }];
  (ix.accounts ?? []).forEach((a, n) => {
    rows.push({ depth: 2, label: found.accounts[n] ?? `account ${n + 1}`, value: say(a.address) });
  });
  const args: Record<string, unknown> = {};
  const decoders = found.args.map((a) => [a.name, argDecoder(a.type)] as const);
  let partly = false;
  if (decoders.every(([, d]) => d !== undefined)) {
    try {
      const struct = getStructDecoder(decoders.map(([n, d]) => [n, d as Decoder<unknown>]));
      const [values, end] = struct.read(data, found.discriminator.length);
      for (const [n, v] of Object.entries(values as Record<string, unknown>)) {
        args[n] = jsonable(v);
        rows.push({ depth: 2, label: n, value: valueText(v) });
      }
      if (end !== data.length) {
        partly = true;
        rows.push({
          depth: 2,
          label: "data",
          value: `${data.length - end} bytes after the arguments the IDL lists`,
        });
      }
    } catch (err) {
      partly = true;
      rows.push({
        depth: 2,
        label: "arguments",
        value: `not decoded: ${why(err)}; data ${hexOf(data)}`,
      });
    }
  } else if (found.args.length > 0) {
    partly = true;
    rows.push({
      depth: 2,
      label: "arguments",
      value: `${found.args.map((a) => a.name).join(", ")}: not decoded (types beyond numbers, bool, pubkey and string); data ${hexOf(data)}`,
    });
  }
  return {
    name: `${program}: ${found.name}`,
    rows,
    summary: [`calls ${found.name} on ${stored.label} `, { role: "program", address: programId }],
    json: { program: programId, interface: stored.label, instruction: found.name, args },
    partly,
  };
}

function accountRows(ix: InstructionView, say: Say): DecodedRow[] {
  return (ix.accounts ?? []).map((a, n) => ({
    depth: 2,
    label: `account ${n + 1}`,
    value: say(a.address),
  }));
}

function otherInstruction(ix: InstructionView, interfaces: ContractInterfaces, say: Say): Decoded {
  const data = bytesOf(ix.data);
  const why = interfaces.note ?? "the organization stores no IDL for it";
  return {
    name: `program ${ix.programAddress}: not decoded (${why})`,
    rows: [{ depth: 2, label: "data", value: hexOf(data) }, ...accountRows(ix, say)],
    json: { program: ix.programAddress, decoded: false, data: Buffer.from(data).toString("hex") },
    partly: true,
  };
}

function decodeInstruction(
  ix: InstructionView,
  interfaces: ContractInterfaces,
  say: Say,
  part: Part,
): Decoded {
  const program = ix.programAddress;
  try {
    switch (program) {
      case SYSTEM_PROGRAM_ADDRESS:
        return systemInstruction(ix, say, part);
      case TOKEN_PROGRAM_ADDRESS:
        return tokenInstruction(ix, say, part, "Token");
      case TOKEN_2022_PROGRAM_ADDRESS:
        return tokenInstruction(ix, say, part, "Token-2022");
      case ASSOCIATED_TOKEN_PROGRAM_ADDRESS:
        return associatedTokenInstruction(ix, say, part);
      case COMPUTE_BUDGET_PROGRAM_ADDRESS:
        return computeBudgetInstruction(ix, say);
      case MEMO_PROGRAM_ADDRESS:
        return memoInstruction(ix);
    }
    return idlInstruction(ix, program, interfaces, say) ?? otherInstruction(ix, interfaces, say);
  } catch (err) {
    const name = PROGRAMS[program] ?? `program ${program}`;
    const data = bytesOf(ix.data);
    return {
      name: `${name}: not decoded (${why(err)})`,
      rows: [{ depth: 2, label: "data", value: hexOf(data) }, ...accountRows(ix, say)],
      json: { program, decoded: false, reason: why(err) },
      partly: true,
    };
  }
}

/** Whether a Solana transaction calls a program whose IDL only the organization could name. */
export function needsIdl(text: string): boolean {
  const wire = wireBytes(text);
  if (!wire) return false;
  try {
    const { message } = readTransaction(wire.bytes);
    const instructions = getInstructionsFromCompiledTransactionMessage(
      message,
      lookupAccounts(message).loaded,
    );
    return instructions.some((i) => !Object.hasOwn(PROGRAMS, i.programAddress));
  } catch {
    return false;
  }
}

/** A Solana transaction (hex or base64 wire bytes) decoded. */
export function decodeSolanaTransaction(
  text: string,
  interfaces: ContractInterfaces,
): DecodedIntent {
  const wire = wireBytes(text);
  if (!wire) {
    return notDecoded(
      WHAT,
      text.trim() === "" ? "it is empty" : "it is neither hexadecimal nor base64",
      text,
    );
  }
  let read: Read;
  let instructions: InstructionView[];
  let accounts: Accounts;
  try {
    read = readTransaction(wire.bytes);
    accounts = lookupAccounts(read.message);
    instructions = getInstructionsFromCompiledTransactionMessage(
      read.message,
      accounts.loaded,
    ) as unknown as InstructionView[];
  } catch (err) {
    return notDecoded(WHAT, why(err), text);
  }
  const { message, signatures } = read;
  const say: Say = (address) => accounts.said.get(address) ?? address;
  const part: Part = (role, address) =>
    accounts.said.has(address) ? "a lookup-table account" : { role, address };
  const version = message.version === "legacy" ? "legacy" : `v${message.version}`;
  const feePayer = message.staticAccounts[0] ?? "";
  const rows: DecodedRow[] = [{ depth: 0, label: "fee payer", value: feePayer }];
  const signers = message.staticAccounts.slice(0, message.header.numSignerAccounts);
  rows.push({
    depth: 0,
    label: "signers",
    value: signers
      .map((s) => {
        const slot = signatures.find((x) => x.address === s);
        return slot?.signed ? `${s} (signed already)` : s;
      })
      .join("\n"),
  });
  const lifetime = message.lifetimeToken ?? "";
  const first = instructions[0];
  const nonce =
    first?.programAddress === SYSTEM_PROGRAM_ADDRESS &&
    bytesOf(first.data).length >= 4 &&
    bytesOf(first.data)[0] === SystemInstruction.AdvanceNonceAccount;
  rows.push(
    nonce
      ? { depth: 0, label: "nonce", value: `${lifetime} (a durable nonce: no blockhash expiry)` }
      : { depth: 0, label: "blockhash", value: lifetime },
  );
  const lookups = "addressTableLookups" in message ? (message.addressTableLookups ?? []) : [];
  for (const l of lookups) {
    rows.push({
      depth: 0,
      label: "lookup table",
      value: `${l.lookupTableAddress}: ${l.writableIndexes.length} writable and ${l.readonlyIndexes.length} read-only accounts, named below by their entry (their addresses are in the table, not in the transaction)`,
    });
  }
  const decoded = instructions.map((ix) => decodeInstruction(ix, interfaces, say, part));
  decoded.forEach((d, n) => {
    rows.push({ depth: 0, label: `#${n + 1}`, value: d.name });
    rows.push(...d.rows.map((r) => ({ ...r, depth: 1 })));
  });
  if (instructions.length === 0) rows.push({ depth: 0, label: "instructions", value: "none" });
  const moving = decoded.filter((d) => d.summary && d.moves);
  const lead = moving[0] ?? decoded.find((d) => d.summary);
  const rest = decoded.length - (lead ? 1 : 0);
  const parts: SummaryPart[] = lead?.summary
    ? [...lead.summary]
    : [
        decoded.length === 0
          ? "runs no instruction"
          : `runs ${decoded.map((d) => d.name.split(":")[0]).join(", ")}`,
      ];
  if (lead && moving.length > 1)
    parts.push(` and ${moving.length - 1} more transfer${moving.length > 2 ? "s" : ""}`);
  if (lead && rest > 0) parts.push(` (${rest} more instruction${rest === 1 ? "" : "s"})`);
  const partly = decoded.some((d) => d.partly);
  return {
    what: `Solana transaction, ${version} message${read.bare ? " (no signature section)" : ""}, ${instructions.length} instruction${instructions.length === 1 ? "" : "s"}`,
    outcome: partly ? "partly" : "decoded",
    summary: summaryOf(...parts),
    rows,
    json: {
      version: message.version,
      encoding: wire.encoding,
      feePayer,
      signers,
      [nonce ? "nonce" : "blockhash"]: lifetime,
      lookupTables: lookups.map((l) => ({
        address: l.lookupTableAddress,
        writableIndexes: [...l.writableIndexes],
        readonlyIndexes: [...l.readonlyIndexes],
      })),
      instructions: decoded.map((d, n) => ({
        program: instructions[n]?.programAddress,
        programName: PROGRAMS[instructions[n]?.programAddress ?? ""] ?? null,
        ...d.json,
      })),
    },
  };
}

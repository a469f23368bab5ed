/**
 * Real unsigned transactions for the generated queue, built with the libraries tvcwatch decodes
 * them with: Solana transactions from the scenario's wallets (SOL transfers with a memo and a
 * priority fee, USDC transfers with the recipient's token account created, a call to the escrow
 * program whose IDL the organization stores, a v0 message whose recipient is in a lookup table)
 * with @solana/kit and its program clients; Ethereum transactions from the treasury key on
 * Sepolia (an ETH transfer, a USDC transfer, a call to a contract whose ABI the organization
 * stores) with viem. Amounts and counterparties are drawn from the queue's generator.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import {
  AccountRole,
  type Address,
  addEncoderSizePrefix,
  appendTransactionMessageInstructions,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createNoopSigner,
  createTransactionMessage,
  type Encoder,
  getBase16Decoder,
  getBase58Decoder,
  getBase64Decoder,
  getStructEncoder,
  getTransactionEncoder,
  getU8Encoder,
  getU16Encoder,
  getU32Encoder,
  getU64Encoder,
  getUtf8Encoder,
  type Instruction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from "@solana/kit";
import { getSetComputeUnitPriceInstruction } from "@solana-program/compute-budget";
import { getAddMemoInstruction } from "@solana-program/memo";
import { getTransferSolInstruction } from "@solana-program/system";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import {
  type Abi,
  type AbiFunction,
  type AbiParameter,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  parseEther,
  parseGwei,
  serializeTransaction,
} from "viem";
import type { SmartContractInterfaceRecord } from "../organization/org-state.js";
import type { Random } from "../random.js";

/** USDC on Solana devnet and on Sepolia (what the queue's token transfers move). */
const DEVNET_USDC = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU" as Address;
const SEPOLIA_USDC = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238";
const SEPOLIA = 11155111;

const base58 = getBase58Decoder();

/** A Solana address from the generator (32 bytes, base58). */
function solanaAddress(rng: Random): Address {
  return base58.decode(Uint8Array.from(Buffer.from(rng.hex(32), "hex"))) as Address;
}

/** A token account of `owner` for `mint`, derived (the queue's records need no chain). */
function tokenAccount(owner: string, mint: string): Address {
  return base58.decode(
    sha256(new TextEncoder().encode(`token-account:${owner}:${mint}`)),
  ) as Address;
}

export interface SolanaWire {
  hex: string;
  base64: string;
}

type SolanaKind = "sol" | "usdc" | "escrow" | "lookup";

/** A message from `payer` with these instructions, compiled and encoded with empty signatures. */
function wire(
  rng: Random,
  payer: Address,
  instructions: Instruction[],
  lookup?: Address[],
): SolanaWire {
  const blockhash = solanaAddress(rng) as unknown as Parameters<
    typeof setTransactionMessageLifetimeUsingBlockhash
  >[0]["blockhash"];
  let message = pipe(
    createTransactionMessage({ version: lookup ? 0 : "legacy" }),
    (m) => setTransactionMessageFeePayer(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash, lastValidBlockHeight: 0n }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  if (lookup) {
    const table = solanaAddress(rng);
    message = compressTransactionMessageUsingAddressLookupTables(message as never, {
      [table]: lookup,
    }) as typeof message;
  }
  const bytes = getTransactionEncoder().encode(compileTransaction(message)) as Uint8Array;
  return { hex: getBase16Decoder().decode(bytes), base64: getBase64Decoder().decode(bytes) };
}

/** A kit encoder for an IDL argument's simple type (the seeded IDL's). */
function idlEncoder(type: unknown): Encoder<unknown> | undefined {
  const encoders: Record<string, () => Encoder<unknown>> = {
    u8: getU8Encoder as () => Encoder<unknown>,
    u16: getU16Encoder as () => Encoder<unknown>,
    u32: getU32Encoder as () => Encoder<unknown>,
    u64: getU64Encoder as () => Encoder<unknown>,
    string: () => addEncoderSizePrefix(getUtf8Encoder(), getU32Encoder()) as Encoder<unknown>,
  };
  return typeof type === "string" && Object.hasOwn(encoders, type) ? encoders[type]?.() : undefined;
}

interface IdlCall {
  discriminator: number[];
  accounts: { name: string; writable?: boolean; signer?: boolean }[];
  args: { name: string; type: unknown }[];
}

/** An instruction to a program the organization stores an IDL for, with drawn arguments. */
function idlInstruction(
  rng: Random,
  wallet: Address,
  stored: SmartContractInterfaceRecord,
): Instruction | undefined {
  let idl: { instructions?: IdlCall[] };
  try {
    idl = JSON.parse(stored.smartContractInterface) as { instructions?: IdlCall[] };
  } catch {
    return undefined;
  }
  const callable = (idl.instructions ?? []).filter(
    (i) => Array.isArray(i.discriminator) && i.args.every((a) => idlEncoder(a.type)),
  );
  if (callable.length === 0) return undefined;
  const call = rng.pick(callable);
  const values: [string, unknown][] = call.args.map((a) => [
    a.name,
    a.type === "string" ? `INV-${rng.int(1000, 9999)}` : BigInt(rng.int(1, 5000) * 1_000_000),
  ]);
  const encoder = getStructEncoder(
    call.args.map((a) => [a.name, idlEncoder(a.type) as Encoder<unknown>]),
  );
  const args = encoder.encode(Object.fromEntries(values)) as Uint8Array;
  return {
    programAddress: stored.smartContractAddress as Address,
    accounts: call.accounts.map((a) => ({
      address: a.signer ? wallet : solanaAddress(rng),
      role: a.signer
        ? a.writable
          ? AccountRole.WRITABLE_SIGNER
          : AccountRole.READONLY_SIGNER
        : a.writable
          ? AccountRole.WRITABLE
          : AccountRole.READONLY,
    })),
    data: Uint8Array.from([...call.discriminator, ...args]),
  };
}

/** An unsigned Solana transaction from `from`, of a drawn kind. */
export function solanaTransaction(
  rng: Random,
  from: string,
  interfaces: readonly SmartContractInterfaceRecord[],
): SolanaWire {
  const wallet = from as Address;
  const signer = createNoopSigner(wallet);
  const programs = interfaces.filter((i) => i.type === "SMART_CONTRACT_INTERFACE_TYPE_SOLANA");
  const kinds: SolanaKind[] = [
    "sol",
    "sol",
    "usdc",
    "lookup",
    ...(programs.length ? (["escrow"] as const) : []),
  ];
  const kind = rng.pick(kinds);
  const priority = getSetComputeUnitPriceInstruction({
    microLamports: BigInt(rng.int(1, 50) * 1000),
  });
  if (kind === "usdc") {
    const owner = solanaAddress(rng);
    const destination = tokenAccount(owner, DEVNET_USDC);
    const amount = BigInt(rng.int(1, 2500)) * 1_000_000n + BigInt(rng.int(0, 999_999));
    return wire(rng, wallet, [
      priority,
      getCreateAssociatedTokenIdempotentInstruction({
        payer: signer,
        ata: destination,
        owner,
        mint: DEVNET_USDC,
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      }),
      getTransferCheckedInstruction({
        source: tokenAccount(wallet, DEVNET_USDC),
        mint: DEVNET_USDC,
        destination,
        authority: signer,
        amount,
        decimals: 6,
      }),
    ]);
  }
  if (kind === "escrow") {
    const call = idlInstruction(rng, wallet, rng.pick(programs));
    if (call) return wire(rng, wallet, [priority, call]);
  }
  const lamports = BigInt(rng.int(1, 40)) * 50_000_000n + BigInt(rng.int(0, 999) * 1000);
  const destination = solanaAddress(rng);
  const transfer = getTransferSolInstruction({ source: signer, destination, amount: lamports });
  if (kind === "lookup") {
    // The recipient is in an address lookup table: the message names it by its entry only.
    return wire(rng, wallet, [priority, transfer], [destination, solanaAddress(rng)]);
  }
  const memo = getAddMemoInstruction({ memo: `payout ${rng.int(10000, 99999)}` });
  return wire(rng, wallet, [priority, transfer, memo]);
}

/** An Ethereum address from the generator (EIP-55). */
function ethereumAddress(rng: Random): `0x${string}` {
  return getAddress(`0x${rng.hex(20)}`);
}

/** Arguments for an ABI function with simple inputs; undefined when one is not simple. */
function drawnArgs(rng: Random, inputs: readonly AbiParameter[]): unknown[] | undefined {
  const args: unknown[] = [];
  for (const input of inputs) {
    if (input.type === "address") args.push(ethereumAddress(rng));
    else if (/^u?int\d*$/.test(input.type)) {
      const bits = Number(input.type.replace(/^u?int/, "") || "256");
      args.push(
        bits <= 64
          ? BigInt(Math.floor(Date.UTC(2030, 0, 1) / 1000) - rng.int(0, 9e7))
          : BigInt(rng.int(1, 9000)) * 1_000_000n,
      );
    } else if (input.type === "string") args.push(`INV-${rng.int(1000, 9999)}`);
    else if (input.type === "bool") args.push(rng.chance(0.5));
    else if (input.type === "bytes32") args.push(`0x${rng.hex(32)}`);
    else return undefined;
  }
  return args;
}

/** Call data for a function of a stored ABI (functions with simple inputs only). */
function storedAbiCall(rng: Random, stored: SmartContractInterfaceRecord): Hex | undefined {
  let abi: Abi;
  try {
    abi = JSON.parse(stored.smartContractInterface) as Abi;
  } catch {
    return undefined;
  }
  if (!Array.isArray(abi)) return undefined;
  const functions = abi.filter(
    (i): i is AbiFunction =>
      i.type === "function" && i.inputs.length > 0 && drawnArgs(rng, i.inputs) !== undefined,
  );
  if (functions.length === 0) return undefined;
  const fn = rng.pick(functions);
  const args = drawnArgs(rng, fn.inputs);
  return args ? encodeFunctionData({ abi: [fn], functionName: fn.name, args } as never) : undefined;
}

/** An unsigned EIP-1559 transaction on Sepolia (hex without 0x, as Turnkey takes it). */
export function ethereumTransaction(
  rng: Random,
  interfaces: readonly SmartContractInterfaceRecord[],
): string {
  const contracts = interfaces.filter((i) => i.type === "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM");
  const kind = rng.pick(["eth", "usdc", ...(contracts.length ? ["contract"] : [])]);
  const fees = {
    chainId: SEPOLIA,
    type: "eip1559" as const,
    nonce: rng.int(0, 400),
    maxFeePerGas: parseGwei(String(rng.int(8, 60))),
    maxPriorityFeePerGas: parseGwei(`${rng.int(1, 3)}`),
  };
  if (kind === "usdc") {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: "transfer",
      args: [
        ethereumAddress(rng),
        BigInt(rng.int(1, 20_000)) * 1_000_000n + BigInt(rng.int(0, 999_999)),
      ],
    });
    return serializeTransaction({ ...fees, to: SEPOLIA_USDC, value: 0n, gas: 65_000n, data }).slice(
      2,
    );
  }
  if (kind === "contract") {
    const stored = rng.pick(contracts);
    const data = storedAbiCall(rng, stored);
    if (data) {
      return serializeTransaction({
        ...fees,
        to: getAddress(stored.smartContractAddress),
        value: 0n,
        gas: 120_000n,
        data,
      }).slice(2);
    }
  }
  const value = parseEther(`${rng.int(1, 300) / 100}`);
  return serializeTransaction({ ...fees, to: ethereumAddress(rng), value, gas: 21_000n }).slice(2);
}

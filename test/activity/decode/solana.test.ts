/**
 * Solana transactions decoded with @solana/kit and its program clients: published vectors from
 * Trust Wallet's wallet-core test suite (signed wire transactions, base58, with the fields its
 * tests expect: a SOL transfer, a memo, an SPL transferChecked taken from mainnet, an associated
 * token account creation), and transactions made here with kit and the program clients (Token-2022,
 * compute budget, a v0 message with a lookup table, a program whose IDL the organization stores).
 */

import {
  type Address,
  appendTransactionMessageInstructions,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createNoopSigner,
  createTransactionMessage,
  getBase16Decoder,
  getBase58Encoder,
  getBase64Decoder,
  getTransactionEncoder,
  type Instruction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from "@solana/kit";
import { getSetComputeUnitLimitInstruction } from "@solana-program/compute-budget";
import { getTransferSolInstruction } from "@solana-program/system";
import { getTransferCheckedInstruction as getTransferChecked2022 } from "@solana-program/token-2022";
import { describe, expect, it } from "vitest";
import type { ContractInterfaces } from "../../../src/activity/decode/contract-interfaces.js";
import { decodeSolanaTransaction } from "../../../src/activity/decode/solana.js";
import type { SmartContractInterface } from "../../../src/api/schemas.js";
import { anchorDiscriminator, escrowIdl } from "../../../src/sim/organization/seed-contracts.js";

const NONE: ContractInterfaces = { list: [] };
const hexOf58 = (text: string) => getBase16Decoder().decode(getBase58Encoder().encode(text));
const rows = (d: ReturnType<typeof decodeSolanaTransaction>, label: string) =>
  d.rows.filter((r) => r.label === label).map((r) => r.value);
const row = (d: ReturnType<typeof decodeSolanaTransaction>, label: string) => rows(d, label)[0];

/** wallet-core tests/chains/Solana/TransactionTests.cpp */
const WALLET_CORE = {
  transfer:
    "5SiHeYyuDgjHxWHbYXSSPfmYc8s7EYZ8bdZ7j15z9Bj1yyZA3Bia9uWkRdXVkuqifXiiQj6fVKy7UkCL5kvv6iKrfjWTZ3szMVssTFxgJ7p8UJ7Mgg2uhHejVJvbzbiHHLbNVuJFs6kBxddnJ2yjWUCp2dYJgjmphfA8hRHHdPH4Rv6znxEhD8q9XY4nByRPL7oMCo32oxeJn5rGbUZdCkapRUXG7zU9whv6KjBktcUQZRCahhowGJT4UM5yCNCsUcqY9yan7UxqPyJgaFPuq4duqWJtQ39bTQ36X",
  memo: "3pzQEdU38uMQgegTyRsRLi23NK4YokgZeSVLXYzFB7HShqZZH8FdBLqj6CeA2d2L8oR9KF2UaJPWbE8YBFmSdaafegoSXJtyj7ciwTjk5ieSXnPXtqH1TEcnMntZATg7gKpeFg6iehqdSUtZuQD1PGmHA1TrzzqLpRSRrc1sqPz8EpSJcQr1Y41B1XCEAfSJDfcuNKrfFrnQaVtRz6tseQfd9uXNYNuR1NQSepWdav5wQiohLUMDiZtxuwb7FQkQ68WE1FDsHmd4JpbWKmDEjz7HFyQY37vf6NBJyX5qWJpFMSg5qGKWvhNCDM32yM4A7HhPeoTWEywE5CXcNmQqdbRt4BzF1A11uqv4etWj",
  tokenTransfer:
    "PGfKqEaH2zZXDMZLcU6LUKdBSzU1GJWJ1CJXtRYCxaCH7k8uok38WSadZfrZw3TGejiau7nSpan2GvbK26hQim24jRe2AupmcYJFrgsdaCt1Aqs5kpGjPqzgj9krgxTZwwob3xgC1NdHK5BcNwhxwRtrCphGEH7zUFpGFrFrHzgpf2KY8FvPiPELQyxzTBuyNtjLjMMreehSKShEjD9Xzp1QeC1pEF8JL6vUKzxMXuveoEYem8q8JiWszYzmTMfDk13JPgv7pXFGMqDV3yNGCLsWccBeSFKN4UKECre6x2QbUEiKGkHkMc4zQwwyD8tGmEMBAGm339qdANssEMNpDeJp2LxLDStSoWShHnotcrH7pUa94xCVvCPPaomF",
  createTokenAccount:
    "CKzRLx3AQeVeLQ7T4hss2rdbUpuAHdbwXDazxtRnSKBuncCk3WnYgy7XTrEiya19MJviYHYdTxi9gmWJY8qnR2vHVnH2DbPiKA8g72rD3VvMnjosGUBBvCwbBLge6FeQdgczMyRo9n5PcHvg9yJBTJaEEvuewyBVHwCGyGQci7eYd26xtZtCjAjwcTq4gGr3NZbeRW6jZp6j6APuew7jys4MKYRV4xPodua1TZFCkyWZr1XKzmPh7KTavtN5VzPDA8rbsvoEjHnKzjB2Bszs6pDjcBFSHyQqGsHoF8XPD35BLfjDghNtBmf9cFqo5axa6oSjANAuYg6cMSP4Hy28waSj8isr6gQjE315hWi3W1swwwPcn322gYZx6aMAcmjczaxX9aktpHYgZxixF7cYWEHxJs5QUK9mJePu9Xc6yW75UB4Ynx6dUgaSTEUzoQthF2TN3xXwu1",
};

describe("published vectors (wallet-core's Solana transaction tests)", () => {
  it("a SOL transfer: 42 lamports from 41a5… to 4iSn…, blockhash 1111…, signed already", () => {
    const d = decodeSolanaTransaction(hexOf58(WALLET_CORE.transfer), NONE);
    expect(d.outcome).toBe("decoded");
    expect(d.what).toBe("Solana transaction, legacy message, 1 instruction");
    expect(row(d, "fee payer")).toBe("41a5jYky56M6EWDsFfLaZRxoRtgAJSRWxJnxaJNJELn5");
    expect(row(d, "signers")).toBe("41a5jYky56M6EWDsFfLaZRxoRtgAJSRWxJnxaJNJELn5 (signed already)");
    expect(row(d, "blockhash")).toBe("11111111111111111111111111111111");
    expect(row(d, "#1")).toBe("System: TransferSol");
    expect(row(d, "amount")).toBe("0.000000042 SOL (42 lamports)");
    expect(row(d, "destination")).toBe("4iSnyfDKaejniaPc2pBBckwQqV3mDS93go15NdxWJq2y");
    expect(d.summary.whole).toBe(
      "sends 0.000000042 SOL to 4iSnyfDKaejniaPc2pBBckwQqV3mDS93go15NdxWJq2y",
    );
    expect(d.summary.short).toBe("sends 0.000000042 SOL to [to]");
  });

  it("a transfer with a memo: the memo's text", () => {
    const d = decodeSolanaTransaction(hexOf58(WALLET_CORE.memo), NONE);
    expect(row(d, "#1")).toBe("Memo");
    expect(row(d, "text")).toBe("HelloSolana73");
    expect(row(d, "#2")).toBe("System: TransferSol");
    expect(d.summary.whole).toBe(
      "sends 0.000000042 SOL to zVSpQnbBZ7dyUWzXhrUQRsTYYNzoAdJWHsHSqhPj3Xu (1 more instruction)",
    );
  });

  it("an SPL transferChecked (mainnet 3vZ67C…): amount 4000 at 6 decimals, the mint and accounts", () => {
    const d = decodeSolanaTransaction(hexOf58(WALLET_CORE.tokenTransfer), NONE);
    expect(row(d, "#1")).toBe("Token: TransferChecked");
    expect(row(d, "amount")).toBe("0.004 (4,000 units, 6 decimals)");
    expect(row(d, "mint")).toBe("SRMuApVNdxXokk5GT7XD5cUUgXMBCoAz2LHeuAoKWRt");
    expect(row(d, "source")).toBe("EDNd1ycsydWYwVmrYZvqYazFqwk1QjBgAUKFjBoz1jKP");
    expect(row(d, "destination")).toBe("3WUX9wASxyScbA7brDipioKfXS1XEYkQ4vo3Kej9bKei");
    expect(row(d, "blockhash")).toBe("CNaHfvqePgGYMvtYi9RuUdVxDYttr1zs4TWrTXYabxZi");
    expect(d.summary.whole).toBe(
      "sends 0.004 tokens (mint SRMuApVNdxXokk5GT7XD5cUUgXMBCoAz2LHeuAoKWRt) to token account 3WUX9wASxyScbA7brDipioKfXS1XEYkQ4vo3Kej9bKei",
    );
  });

  it("an associated token account created (the program's data-less form)", () => {
    const d = decodeSolanaTransaction(hexOf58(WALLET_CORE.createTokenAccount), NONE);
    expect(row(d, "#1")).toBe("Associated Token Account: CreateAssociatedToken");
    expect(row(d, "ata")).toBe("EDNd1ycsydWYwVmrYZvqYazFqwk1QjBgAUKFjBoz1jKP");
    expect(row(d, "owner")).toBe("B1iGmDJdvmxyUiYM8UEo2Uw2D58EmUrw4KyLYMmrhf8V");
    expect(row(d, "blockhash")).toBe("9ipJh5xfyoyDaiq8trtrdqQeAhQbQkWy2eANizKvx75K");
    expect(d.summary.whole).toBe(
      "creates a token account for B1iGmDJdvmxyUiYM8UEo2Uw2D58EmUrw4KyLYMmrhf8V",
    );
  });
});

const PAYER = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" as Address;
const TO = "4iSnyfDKaejniaPc2pBBckwQqV3mDS93go15NdxWJq2y" as Address;
const BLOCKHASH = "J4yED2jcMAHyQUg61DBmm4njmEydUr2WqrV9cdEcDDgL";

/** A transaction from PAYER with these instructions, as wire bytes (hex, or base64). */
function made(
  instructions: Instruction[],
  options: { v0?: boolean; lookup?: Record<string, Address[]> } = {},
) {
  let message = pipe(
    createTransactionMessage({ version: options.v0 ? 0 : "legacy" }),
    (m) => setTransactionMessageFeePayer(PAYER, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: BLOCKHASH as never, lastValidBlockHeight: 0n },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  if (options.lookup) {
    message = compressTransactionMessageUsingAddressLookupTables(
      message as never,
      options.lookup,
    ) as typeof message;
  }
  const bytes = getTransactionEncoder().encode(compileTransaction(message));
  return { hex: getBase16Decoder().decode(bytes), base64: getBase64Decoder().decode(bytes) };
}

describe("transactions made with kit and the program clients", () => {
  const signer = createNoopSigner(PAYER);
  const transfer = getTransferSolInstruction({
    source: signer,
    destination: TO,
    amount: 250_000_000n,
  });

  it("hex and base64 (sign_transaction's and sol_send_transaction's) decode alike", () => {
    const wire = made([getSetComputeUnitLimitInstruction({ units: 200_000 }), transfer]);
    const fromHex = decodeSolanaTransaction(wire.hex, NONE);
    const fromBase64 = decodeSolanaTransaction(wire.base64, NONE);
    expect(fromBase64.rows).toEqual(fromHex.rows);
    expect(fromHex.json.encoding).toBe("hex");
    expect(fromBase64.json.encoding).toBe("base64");
    expect(row(fromHex, "#1")).toBe("Compute Budget: SetComputeUnitLimit");
    expect(row(fromHex, "units")).toBe("200000");
    expect(row(fromHex, "signers")).toBe(PAYER);
    expect(fromHex.summary.whole).toBe(`sends 0.25 SOL to ${TO} (1 more instruction)`);
  });

  it("an amount exact and grouped, in SOL and in lamports, as Ethereum's are in ETH and wei", () => {
    const d = decodeSolanaTransaction(made([transfer]).hex, NONE);
    expect(row(d, "amount")).toBe("0.25 SOL (250,000,000 lamports)");
  });

  it("a Token-2022 transferChecked of a known mint, in its units", () => {
    const mint = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address;
    const wire = made([
      getTransferChecked2022({
        source: TO,
        mint,
        destination: "GaeTAQZyhVEocTC7iY8GztSyY5cBAJTkAUUA1kLFLMV" as Address,
        authority: signer,
        amount: 1_500_000n,
        decimals: 6,
      }),
    ]);
    const d = decodeSolanaTransaction(wire.hex, NONE);
    expect(row(d, "#1")).toBe("Token-2022: TransferChecked");
    expect(row(d, "amount")).toBe("1.5 USDC (1,500,000 units, 6 decimals)");
    expect(d.summary.whole).toBe(
      "sends 1.5 USDC to token account GaeTAQZyhVEocTC7iY8GztSyY5cBAJTkAUUA1kLFLMV",
    );
  });

  it("a v0 message whose recipient is in a lookup table: the table, and the account by its entry", () => {
    const table = "2gt6zNHDVd81vZY1ecx8vMy7b2MmE8WW3h2S9xsJBHz4";
    const wire = made([transfer], { v0: true, lookup: { [table]: [TO] } });
    const d = decodeSolanaTransaction(wire.hex, NONE);
    expect(d.what).toBe("Solana transaction, v0 message, 1 instruction");
    expect(row(d, "lookup table")).toBe(
      `${table}: 1 writable and 0 read-only accounts, named below by their entry (their addresses are in the table, not in the transaction)`,
    );
    expect(row(d, "destination")).toBe(
      `entry 0 of lookup table ${table} (writable; its address is in the table, not in the transaction)`,
    );
    expect(d.summary.whole).toBe("sends 0.25 SOL to a lookup-table account");
    expect(d.json.lookupTables).toEqual([
      { address: table, writableIndexes: [0], readonlyIndexes: [] },
    ]);
  });

  it("a program whose IDL the organization stores: named by it, accounts and arguments by name", () => {
    const program = "72sT7uuXQiyJKHmKwFcA7VSqBK7BeqPZqxo81we1aPag" as Address;
    const idl: ContractInterfaces = {
      list: [
        {
          organizationId: "o",
          smartContractInterfaceId: "sci-2",
          smartContractAddress: program,
          smartContractInterface: JSON.stringify(escrowIdl(program)),
          type: "SMART_CONTRACT_INTERFACE_TYPE_SOLANA",
          label: "Acme escrow",
          notes: "",
          createdAt: "0",
          updatedAt: "0",
        } satisfies SmartContractInterface,
      ],
    };
    // release_escrow(amount: u64 = 7, invoice: string = "INV-1"), borsh.
    const args = [7, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, ...new TextEncoder().encode("INV-1")];
    const call: Instruction = {
      programAddress: program,
      accounts: [
        { address: TO, role: 1 },
        { address: "GaeTAQZyhVEocTC7iY8GztSyY5cBAJTkAUUA1kLFLMV" as Address, role: 1 },
        { address: PAYER, role: 2 },
      ],
      data: Uint8Array.from([...anchorDiscriminator("release_escrow"), ...args]),
    };
    const d = decodeSolanaTransaction(made([call]).hex, idl);
    expect(d.outcome).toBe("decoded");
    expect(row(d, "#1")).toBe("Acme escrow (IDL acme_escrow): release_escrow");
    expect(row(d, "escrow")).toBe(TO);
    expect(row(d, "authority")).toBe(PAYER);
    expect(row(d, "amount")).toBe("7");
    expect(row(d, "invoice")).toBe("INV-1");
    expect(d.summary.whole).toBe(`calls release_escrow on Acme escrow ${program}`);
    // Without the IDL: the program by id, its data whole, and why it is not decoded.
    const bare = decodeSolanaTransaction(made([call]).hex, NONE);
    expect(bare.outcome).toBe("partly");
    expect(row(bare, "#1")).toBe(
      `program ${program}: not decoded (the organization stores no IDL for it)`,
    );
    expect(row(bare, "data")).toMatch(/^[0-9a-f]+ \(25 bytes\)$/);
  });
});

describe("what is not a Solana transaction", () => {
  it.each([
    ["text", "hello there", "not a Solana transaction: it is neither hexadecimal nor base64"],
    ["empty", "", "not a Solana transaction: it is empty"],
  ])("%s: one line why, and the raw value whole", (_name, raw, what) => {
    const d = decodeSolanaTransaction(raw, NONE);
    expect(d.outcome).toBe("not-decoded");
    expect(d.what).toBe(what);
    expect(d.rows).toEqual([{ depth: 0, label: "raw", value: raw === "" ? '""' : raw }]);
  });

  it("bytes that are not a transaction: the library's reason, the value whole", () => {
    const raw = `01${"00".repeat(64)}ff`;
    const d = decodeSolanaTransaction(raw, NONE);
    expect(d.what).toMatch(/^not a Solana transaction: \S/);
    expect(d.what).not.toContain("\n");
    expect(row(d, "raw")).toBe(raw);
  });

  it("the library's reason as words, as the bundled program (NODE_ENV=production) meets it", () => {
    // @solana/kit's production build says only `Solana error #N; Decode this error by running npx
    // @solana/errors decode`: a person would have to leave the tool to read why.
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      const raw = "ff".repeat(300);
      const d = decodeSolanaTransaction(raw, NONE);
      expect(d.outcome).toBe("not-decoded");
      expect(d.what).not.toMatch(/npx|Solana error #/);
      expect(d.what).toBe(
        "not a Solana transaction: transaction version number not supported (unsupportedVersion 127)",
      );
      expect(row(d, "raw")).toBe(raw);
    } finally {
      process.env.NODE_ENV = before;
    }
  });

  it("bytes after a whole transaction are not ignored", () => {
    const d = decodeSolanaTransaction(`${hexOf58(WALLET_CORE.transfer)}00`, NONE);
    expect(d.what).toBe("not a Solana transaction: 1 byte after the message");
  });
});

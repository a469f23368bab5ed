/**
 * Ethereum transactions decoded with viem: the published EIP-155 vectors (the EIP's own example,
 * unsigned and signed, with its expected fields), and transactions made here with viem itself
 * (each type, ERC-20 calls, a call to a contract whose ABI the organization stores).
 */
import {
  encodeFunctionData,
  erc20Abi,
  maxUint256,
  parseEther,
  parseGwei,
  serializeTransaction,
} from "viem";
import { describe, expect, it } from "vitest";
import type { ContractInterfaces } from "../../../src/activity/decode/contract-interfaces.js";
import { decodedLines, summaryLines } from "../../../src/activity/decode/decoded-intent.js";
import { decodeEthereumTransaction } from "../../../src/activity/decode/ethereum.js";
import type { SmartContractInterface } from "../../../src/api/schemas.js";
import { PAYOUT_VAULT_ABI } from "../../../src/sim/organization/seed-contracts.js";

const NONE: ContractInterfaces = { list: [] };
const ALICE = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const SEPOLIA_USDC = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238";
const VAULT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

/** A row's value by its label. */
const row = (d: ReturnType<typeof decodeEthereumTransaction>, label: string) =>
  d.rows.find((r) => r.label === label)?.value;

const stored = (abi: unknown, address = VAULT): ContractInterfaces => ({
  list: [
    {
      organizationId: "o",
      smartContractInterfaceId: "sci-1",
      smartContractAddress: address,
      smartContractInterface: JSON.stringify(abi),
      type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
      label: "Payout vault",
      notes: "",
      createdAt: "0",
      updatedAt: "0",
    } satisfies SmartContractInterface,
  ],
});

describe("published vectors (EIP-155's example transaction)", () => {
  it("the signing data: legacy, chain 1, 1 ETH to 0x3535…, nonce 9, 21000 gas at 20 gwei", () => {
    const d = decodeEthereumTransaction(
      "ec098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a764000080018080",
      NONE,
    );
    expect(d.outcome).toBe("decoded");
    expect(d.what).toBe("Ethereum transaction, legacy");
    expect(row(d, "chain")).toBe("1 (Ethereum)");
    expect(row(d, "to")).toBe("0x3535353535353535353535353535353535353535");
    expect(row(d, "value")).toBe("1 ETH (1,000,000,000,000,000,000 wei)");
    expect(row(d, "nonce")).toBe("9");
    expect(row(d, "gas limit")).toBe("21000");
    expect(row(d, "gas price")).toBe("20 gwei; at most 0.00042 ETH");
    expect(d.summary.whole).toBe("sends 1 ETH to 0x3535353535353535353535353535353535353535");
    expect(d.json).toMatchObject({ type: "legacy", chainId: 1, valueWei: "1000000000000000000" });
  });

  it("the signed transaction: the same fields, and said to carry a signature already", () => {
    const d = decodeEthereumTransaction(
      "0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83",
      NONE,
    );
    expect(row(d, "chain")).toBe("1 (Ethereum)");
    expect(row(d, "nonce")).toBe("9");
    expect(row(d, "signature")).toMatch(/carries one already/);
  });
});

describe("transactions made with viem", () => {
  const fees = {
    chainId: 11155111,
    nonce: 7,
    gas: 65_000n,
    maxFeePerGas: parseGwei("30"),
    maxPriorityFeePerGas: parseGwei("1.5"),
  };

  it("EIP-1559: chain named, value in ETH and wei, fees in gwei with their most", () => {
    const d = decodeEthereumTransaction(
      serializeTransaction({ ...fees, to: ALICE, value: parseEther("0.25"), gas: 21_000n }),
      NONE,
    );
    expect(d.what).toBe("Ethereum transaction, EIP-1559");
    expect(row(d, "chain")).toBe("11155111 (Sepolia)");
    expect(row(d, "value")).toBe("0.25 ETH (250,000,000,000,000,000 wei)");
    expect(row(d, "max fee")).toBe("30 gwei per gas; at most 0.00063 ETH");
    expect(row(d, "priority fee")).toBe("1.5 gwei per gas");
    expect(d.summary.whole).toBe(`sends 0.25 ETH to ${ALICE}`);
  });

  it("a large value: exact to the wei and its thousands grouped, in the rows and the summary", () => {
    const d = decodeEthereumTransaction(
      serializeTransaction({ ...fees, to: ALICE, value: parseEther("12345.000000000000000001") }),
      NONE,
    );
    expect(row(d, "value")).toBe(
      "12,345.000000000000000001 ETH (12,345,000,000,000,000,000,001 wei)",
    );
    expect(d.summary.whole).toBe(`sends 12,345.000000000000000001 ETH to ${ALICE}`);
    // Programs read the JSON's plain forms.
    expect(d.json.valueWei).toBe("12345000000000000000001");
    expect(d.json.valueEth).toBe("12345.000000000000000001");
  });

  it("EIP-2930, EIP-4844 and EIP-7702 by name, with what each adds", () => {
    const access = decodeEthereumTransaction(
      serializeTransaction({
        chainId: 1,
        gasPrice: parseGwei("2"),
        to: ALICE,
        accessList: [{ address: BOB, storageKeys: [`0x${"00".repeat(31)}01`] }],
      }),
      NONE,
    );
    expect(access.what).toBe("Ethereum transaction, EIP-2930 (access list)");
    expect(row(access, "access list")).toBe(`${BOB} (1 storage keys)`);
    const blob = decodeEthereumTransaction(
      serializeTransaction({
        chainId: 1,
        to: ALICE,
        maxFeePerGas: 1n,
        maxFeePerBlobGas: parseGwei("3"),
        blobVersionedHashes: [`0x01${"ab".repeat(31)}`],
      }),
      NONE,
    );
    expect(blob.what).toBe("Ethereum transaction, EIP-4844 (blob)");
    expect(row(blob, "blobs")).toBe(`0x01${"ab".repeat(31)}`);
    expect(row(blob, "blob fee")).toBe("3 gwei per blob gas");
    const code = decodeEthereumTransaction(
      serializeTransaction({
        chainId: 1,
        to: ALICE,
        maxFeePerGas: 1n,
        authorizationList: [
          {
            address: BOB,
            chainId: 1,
            nonce: 3,
            r: `0x${"11".repeat(32)}`,
            s: `0x${"22".repeat(32)}`,
            yParity: 0,
          },
        ],
      }),
      NONE,
    );
    expect(code.what).toBe("Ethereum transaction, EIP-7702 (set code)");
    expect(row(code, "delegates")).toBe(
      `the signer's account to code at ${BOB}, on chain 1 (Ethereum), nonce 3`,
    );
    expect(code.summary.whole).toBe(`sets the account's code to ${BOB}; sends 0 ETH to ${ALICE}`);
  });

  it("a contract creation, and a chain tvcwatch does not know", () => {
    const d = decodeEthereumTransaction(
      serializeTransaction({ chainId: 987654321, maxFeePerGas: 1n, data: "0x6080604052" }),
      NONE,
    );
    expect(row(d, "to")).toBe("nobody: it creates a contract");
    expect(row(d, "chain")).toBe("987654321 (not a chain tvcwatch knows)");
    expect(d.summary.whole).toBe("deploys a contract (5 bytes of code)");
  });
});

describe("call data", () => {
  const tx = (to: `0x${string}`, data: `0x${string}`, chainId = 11155111) =>
    serializeTransaction({ chainId, maxFeePerGas: parseGwei("20"), gas: 70_000n, to, data });

  it("ERC-20 transfer of a token whose decimals are known: the amount in token units", () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: "transfer",
      args: [ALICE, 12_500_000n],
    });
    const d = decodeEthereumTransaction(tx(SEPOLIA_USDC, data), NONE);
    expect(d.outcome).toBe("decoded");
    expect(row(d, "calls")).toBe("transfer(address,uint256) (ERC-20) 0xa9059cbb");
    expect(row(d, "token")).toBe(`${SEPOLIA_USDC} (USDC, 6 decimals)`);
    expect(row(d, "amount")).toBe("12.5 USDC (12,500,000 units, 6 decimals)");
    expect(d.summary.whole).toBe(`sends 12.5 USDC to ${ALICE}`);
    expect(d.json).toMatchObject({
      erc20: { function: "transfer", to: ALICE, amount: "12500000" },
    });
  });

  it("ERC-20 approve of an unlimited amount says so; transferFrom of an unknown token is raw", () => {
    const approve = decodeEthereumTransaction(
      tx(
        SEPOLIA_USDC,
        encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [BOB, maxUint256] }),
      ),
      NONE,
    );
    expect(row(approve, "spender")).toBe(BOB);
    expect(row(approve, "allowance")).toBe("unlimited (2^256 - 1)");
    expect(approve.summary.whole).toBe(`lets ${BOB} spend an UNLIMITED amount of USDC`);
    const from = decodeEthereumTransaction(
      tx(
        VAULT,
        encodeFunctionData({ abi: erc20Abi, functionName: "transferFrom", args: [ALICE, BOB, 5n] }),
      ),
      NONE,
    );
    expect(row(from, "amount")).toBe("5 (raw: the token's decimals are not known here)");
    expect(from.summary.whole).toBe(`moves 5 tokens of ${VAULT} from ${ALICE} to ${BOB}`);
  });

  it("a call to a contract whose ABI the organization stores: the function and its named arguments", () => {
    const data = encodeFunctionData({
      abi: PAYOUT_VAULT_ABI,
      functionName: "release",
      args: [ALICE, 4_000_000n],
    });
    const d = decodeEthereumTransaction(
      tx(VAULT.toLowerCase() as `0x${string}`, data),
      stored(PAYOUT_VAULT_ABI),
    );
    expect(d.outcome).toBe("decoded");
    expect(row(d, "calls")).toMatch(
      /^release on Payout vault \(ABI stored by the organization\) 0x[0-9a-f]{8}\nrelease\(address beneficiary, uint256 amount\)$/,
    );
    expect(row(d, "beneficiary")).toBe(ALICE);
    expect(row(d, "amount")).toBe("4000000");
    expect(d.summary.whole).toBe(`calls release(beneficiary, amount) on Payout vault ${VAULT}`);
    expect(d.json).toMatchObject({
      call: { function: "release", args: { beneficiary: ALICE, amount: "4000000" } },
    });
  });

  it("an ABI stored as Hardhat writes it ({abi: [...]}) decodes the same", () => {
    const data = encodeFunctionData({ abi: PAYOUT_VAULT_ABI, functionName: "pause" });
    const d = decodeEthereumTransaction(tx(VAULT, data), stored({ abi: PAYOUT_VAULT_ABI }));
    expect(d.summary.whole).toBe(`calls pause() on Payout vault ${VAULT}`);
  });

  it("a selector no ABI knows: said not decoded, the data whole, and why", () => {
    const data =
      "0xdeadbeef00000000000000000000000000000000000000000000000000000000000000ff" as const;
    const d = decodeEthereumTransaction(tx(VAULT, data), NONE);
    expect(d.outcome).toBe("partly");
    expect(row(d, "calls")).toBe(
      `selector 0xdeadbeef: not decoded (the organization stores no ABI for ${VAULT}; not an ERC-20 call)`,
    );
    expect(row(d, "data")).toBe(`${data} (36 bytes)`);
    const withAbi = decodeEthereumTransaction(tx(VAULT, data), stored(PAYOUT_VAULT_ABI));
    expect(row(withAbi, "calls")).toMatch(
      /^0xdeadbeef on Payout vault \(ABI stored by the organization\): not decoded with it/,
    );
    const notJson = decodeEthereumTransaction(tx(VAULT, data), {
      list: [
        { ...(stored([]).list[0] as SmartContractInterface), smartContractInterface: "{nope" },
      ],
    });
    expect(row(notJson, "calls")).toMatch(/its stored interface is not JSON/);
    const unread = decodeEthereumTransaction(tx(VAULT, data), {
      list: [],
      note: "contract interfaces not read: request not authorized",
    });
    expect(row(unread, "calls")).toMatch(/contract interfaces not read: request not authorized/);
  });
});

describe("what is not an Ethereum transaction", () => {
  it.each([
    ["not hex", "zz-top", "not an Ethereum transaction: it is not hexadecimal"],
    ["empty", "0x", "not an Ethereum transaction: it is empty"],
    [
      "an unknown type",
      "0x12c0",
      'not an Ethereum transaction: Serialized transaction type "0x12" is invalid.',
    ],
  ])("%s: one line why, and the raw value whole", (_name, raw, what) => {
    const d = decodeEthereumTransaction(raw, NONE);
    expect(d.outcome).toBe("not-decoded");
    expect(d.what).toBe(what);
    expect(d.rows).toEqual([{ depth: 0, label: "raw", value: raw }]);
  });
});

describe("lines", () => {
  it("the summary fits on one line, or names each address whole on its own", () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: "transferFrom",
      args: [ALICE, BOB, 5n],
    });
    const d = decodeEthereumTransaction(
      serializeTransaction({ chainId: 1, maxFeePerGas: 1n, to: VAULT, data }),
      NONE,
    );
    expect(summaryLines(d.summary, 300)).toEqual([`  decoded      ${d.summary.whole}`]);
    const narrow = summaryLines(d.summary, 76);
    expect(narrow[0]).toBe("  decoded      moves 5 tokens of [token] from [from] to [to]");
    expect(narrow.slice(1)).toEqual([
      `               token     ${VAULT}`,
      `               from      ${ALICE}`,
      `               to        ${BOB}`,
    ]);
    for (const l of narrow) expect(l.length).toBeLessThanOrEqual(76);
    // No address is shown cut: a prefix is what a look-alike address matches.
    for (const l of narrow) expect(l).not.toContain("…");
    const lines = decodedLines(d);
    expect(lines[0]).toBe("  decoded      Ethereum transaction, EIP-1559");
    expect(lines).toContain(`      from      ${ALICE}`);
  });
});

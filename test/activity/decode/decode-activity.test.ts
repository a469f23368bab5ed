/**
 * The one entry point: which activities carry something to decode, the organization's ABIs and
 * IDLs asked only for a call that needs one (and a refusal said, not thrown), sol_send's own
 * fields, other chains said not decoded; the dashboard's IntentDecoder keeps a decoding by the
 * activity's id and fingerprint and tells its subscribers when one lands.
 */
import { encodeFunctionData, erc20Abi, parseEther, serializeTransaction } from "viem";
import { describe, expect, it, vi } from "vitest";
import { contractInterfaceSource } from "../../../src/activity/decode/contract-interfaces.js";
import { decodeActivity, hasDecoding } from "../../../src/activity/decode/decode-activity.js";
import { decodedJson } from "../../../src/activity/decode/decoded-intent.js";
import { IntentDecoder } from "../../../src/activity/decode/intent-decoder.js";
import { TurnkeyApiError } from "../../../src/api/errors.js";
import type { Activity } from "../../../src/api/schemas.js";
import { PAYOUT_VAULT_ABI } from "../../../src/sim/organization/seed-contracts.js";

const VAULT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const ALICE = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

function activity(type: string, intent: Record<string, unknown>, id = "a1"): Activity {
  return {
    id,
    organizationId: "o",
    status: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
    type,
    intent: { someIntent: intent },
    result: {},
    votes: [],
    fingerprint: `sha256:${id}`,
    canApprove: true,
    canReject: true,
    createdAt: "0",
    updatedAt: "0",
  } as Activity;
}

const ethTx = (data?: `0x${string}`, to = VAULT) =>
  serializeTransaction({
    chainId: 1,
    maxFeePerGas: 1n,
    to: to as `0x${string}`,
    value: parseEther("0.1"),
    ...(data ? { data } : {}),
  }).slice(2);

const signEth = (unsignedTransaction: string) =>
  activity("ACTIVITY_TYPE_SIGN_TRANSACTION_V2", {
    signWith: ALICE,
    unsignedTransaction,
    type: "TRANSACTION_TYPE_ETHEREUM",
  });

describe("decodeActivity", () => {
  it("only activities that sign something have a decoding", async () => {
    expect(hasDecoding({ type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2" })).toBe(false);
    expect(await decodeActivity(activity("ACTIVITY_TYPE_CREATE_API_KEYS_V2", {}))).toBeUndefined();
    for (const t of [
      "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
      "ACTIVITY_TYPE_SOL_SEND_TRANSACTION",
      "ACTIVITY_TYPE_ETH_SEND_TRANSACTION",
      "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      "ACTIVITY_TYPE_SIGN_RAW_PAYLOADS",
    ])
      expect(hasDecoding({ type: t })).toBe(true);
  });

  it("asks for the organization's ABIs only when a call needs one", async () => {
    const interfaces = vi.fn(async () => ({ list: [] }));
    await decodeActivity(signEth(ethTx()), { interfaces });
    expect(interfaces).not.toHaveBeenCalled();
    const data = encodeFunctionData({
      abi: PAYOUT_VAULT_ABI,
      functionName: "release",
      args: [ALICE, 1n],
    });
    const d = await decodeActivity(signEth(ethTx(data)), { interfaces });
    expect(interfaces).toHaveBeenCalledTimes(1);
    expect(d?.outcome).toBe("partly");
  });

  it("a refused list_smart_contract_interfaces is a note in the decoding, read again a minute later", async () => {
    let now = 0;
    const call = vi.fn(async () => {
      throw new TurnkeyApiError({
        httpStatus: 403,
        grpcCode: 7,
        message: "request not authorized",
        operation: "list_smart_contract_interfaces",
      });
    });
    const source = contractInterfaceSource({ call } as never, () => now);
    const data = encodeFunctionData({
      abi: PAYOUT_VAULT_ABI,
      functionName: "release",
      args: [ALICE, 1n],
    });
    const d = await decodeActivity(signEth(ethTx(data)), { interfaces: source });
    expect(d?.rows.find((r) => r.label === "calls")?.value).toMatch(
      /contract interfaces not read: .*request not authorized/,
    );
    await source();
    expect(call).toHaveBeenCalledTimes(1);
    now = 60_000;
    await source();
    expect(call).toHaveBeenCalledTimes(2);
  });

  it("sol_send_transaction: its network and sponsor, then the transaction; other chains said not decoded", async () => {
    const bad = await decodeActivity(
      activity("ACTIVITY_TYPE_SOL_SEND_TRANSACTION", {
        unsignedTransaction: "AQID",
        caip2: "solana:devnet",
        sponsor: true,
      }),
    );
    expect(bad?.rows.slice(0, 2)).toEqual([
      { depth: 0, label: "network", value: "solana:devnet" },
      { depth: 0, label: "sponsor", value: "yes: Turnkey's Gas Station pays the fee" },
    ]);
    const tron = await decodeActivity(
      activity("ACTIVITY_TYPE_SIGN_TRANSACTION_V2", {
        unsignedTransaction: "0a02",
        type: "TRANSACTION_TYPE_TRON",
      }),
    );
    expect(tron?.outcome).toBe("not-decoded");
    expect(tron?.what).toBe(
      "not a transaction tvcwatch decodes: it is TRANSACTION_TYPE_TRON; tvcwatch decodes Ethereum and Solana transactions",
    );
    expect(tron?.rows).toEqual([{ depth: 0, label: "raw", value: "0a02" }]);
  });

  it("eth_send_transaction: the fields Turnkey builds it from, and its call data", async () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: "transfer",
      args: [ALICE, 2_000_000n],
    });
    const d = await decodeActivity(
      activity("ACTIVITY_TYPE_ETH_SEND_TRANSACTION", {
        from: VAULT,
        caip2: "eip155:1",
        to: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
        value: "0",
        data,
      }),
    );
    expect(d?.summary.whole).toBe(`sends 2 USDC to ${ALICE}`);
    expect(d?.rows.find((r) => r.label === "chain")?.value).toBe("1 (Ethereum)");
  });

  it("-o json's decoded: what, outcome and summary beside the structured fields", async () => {
    const d = await decodeActivity(signEth(ethTx(undefined, ALICE)));
    expect(d && decodedJson(d)).toMatchObject({
      what: "Ethereum transaction, EIP-1559",
      outcome: "decoded",
      summary: `sends 0.1 ETH to ${ALICE}`,
      valueWei: "100000000000000000",
    });
  });
});

describe("IntentDecoder (the dashboard's)", () => {
  it("decoding, then done, subscribers told once; nothing to decode is none; kept by id and fingerprint", async () => {
    const decoder = new IntentDecoder();
    const told = vi.fn();
    decoder.subscribe(told);
    const a = signEth(ethTx(undefined, ALICE));
    expect(decoder.lookup(a)).toEqual({ state: "decoding" });
    await vi.waitFor(() => expect(decoder.lookup(a).state).toBe("done"));
    expect(told).toHaveBeenCalledTimes(1);
    expect(decoder.version).toBe(1);
    expect(decoder.lookup(activity("ACTIVITY_TYPE_CREATE_API_KEYS_V2", {}))).toEqual({
      state: "none",
    });
    // The same id with other content (another fingerprint) is decoded again.
    const changed = { ...a, fingerprint: "sha256:other" };
    expect(decoder.lookup(changed)).toEqual({ state: "decoding" });
    expect(await decoder.decode(changed)).toBeDefined();
  });
});

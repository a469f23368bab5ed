/**
 * `tvcwatch activity get` against the simulator (`tvcwatch sim`, whose queue signs real
 * transactions): what an activity signs, decoded, comes first, before its type and id; `-o json`
 * adds the decoding under `decoded`, beside the API's `activity`, whose intent is untouched; an
 * activity that signs nothing has no decoding.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliResult, runCli } from "../helpers/run-cli.js";
import { startSimProcess } from "../helpers/sim-process.js";

const config = join(mkdtempSync(join(tmpdir(), "tvcwatch-decoded-")), "sim.json");
let sim: ChildProcess;

beforeAll(async () => {
  sim = (await startSimProcess(["--seed", "5", "--write-config", config])).process;
}, 30_000);
afterAll(() => {
  sim?.kill("SIGTERM");
});

const cli = (...args: string[]): Promise<CliResult> =>
  runCli(["--config", config, ...args], { timeoutMs: 40_000 });

interface Listed {
  id: string;
  type: string;
  intent: Record<string, Record<string, unknown>>;
}

async function listed(): Promise<Listed[]> {
  const r = await cli("activity", "list", "--limit", "100", "-o", "json");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).activities;
}

describe("activity get shows what an activity signs, decoded, first", () => {
  it("text: the decoded lines before the type and id; json: under decoded, beside the API's activity", async () => {
    const all = await listed();
    const signing = all.filter((a) =>
      /SIGN_TRANSACTION|SOL_SEND_TRANSACTION|SIGN_RAW_PAYLOAD/.test(a.type),
    );
    expect(signing.length).toBeGreaterThan(3);
    for (const a of signing.slice(0, 4)) {
      const text = await cli("activity", "get", a.id);
      expect(text.code, text.stderr).toBe(0);
      const lines = text.stdout.split("\n");
      expect(lines[0]).toMatch(/^ {2}decoded {6}\S/);
      expect(lines[1]).toMatch(/^ {4}summary {5}\S/);
      expect(text.stdout.indexOf("  decoded")).toBeLessThan(text.stdout.indexOf("  type "));
      expect(text.stdout).not.toMatch(/not decoded|not a Solana|not an Ethereum/);

      const json = await cli("activity", "get", a.id, "-o", "json");
      expect(json.code).toBe(0);
      const answer = JSON.parse(json.stdout);
      expect(Object.keys(answer)).toEqual(["activity", "decoded"]);
      // The API's intent as it sent it: the decoding never replaces it.
      expect(answer.activity.intent).toEqual(a.intent);
      expect(answer.decoded.outcome).toBe("decoded");
      expect(typeof answer.decoded.summary).toBe("string");
      expect(lines[1]).toContain(answer.decoded.summary);
    }
  }, 120_000);

  it("the decoded lines name the organization's own accounts and keys, as the intent's lines do", async () => {
    const all = await listed();
    const solana = all.find(
      (a) =>
        a.type === "ACTIVITY_TYPE_SIGN_TRANSACTION_V2" &&
        Object.values(a.intent)[0]?.type === "TRANSACTION_TYPE_SOLANA",
    );
    const ethereum = all.find(
      (a) =>
        a.type === "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2" &&
        Object.values(a.intent)[0]?.encoding === "PAYLOAD_ENCODING_EIP712",
    );
    expect(solana && ethereum).toBeTruthy();
    const sol = (await cli("activity", "get", solana?.id ?? "")).stdout;
    // The fee payer is a wallet account of the organization: named where it is decoded.
    expect(sol).toMatch(
      /^ {4}fee payer {3}\w{32,44} \(wallet account "[^"]+ m\/44'\/501'\/0'\/0'"\)$/m,
    );
    const permit = (await cli("activity", "get", ethereum?.id ?? "")).stdout;
    // The permit's owner is the treasury key.
    expect(permit).toMatch(/^ {6}owner {5}0x[0-9a-fA-F]{40} \(private key "treasury-eth"\)$/m);
  }, 60_000);

  it("an activity that signs nothing has no decoding", async () => {
    const other = (await listed()).find((a) =>
      /EXPORT_WALLET|CREATE_INVITATIONS|SET_ORGANIZATION/.test(a.type),
    );
    expect(other).toBeDefined();
    const text = await cli("activity", "get", other?.id ?? "");
    expect(text.stdout.split("\n")[0]).toMatch(/^ {2}type /);
    const json = JSON.parse((await cli("activity", "get", other?.id ?? "", "-o", "json")).stdout);
    expect(Object.keys(json)).toEqual(["activity"]);
  }, 60_000);
});

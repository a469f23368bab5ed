/**
 * The simulator's generated queue signs real things (issue 36 point 6): over an hour of traffic,
 * every sign_transaction (Solana and Ethereum), sol_send_transaction and sign_raw_payload is
 * decoded whole by the decoders tvcwatch uses, with the organization's stored ABI and IDL; its
 * Solana transactions are from the organization's own Solana addresses (a wallet account or a
 * private key its lists name, so an approver sees whose funds move), its Ethereum ones from the
 * treasury key;
 * and each kind the queue makes appears (SOL and USDC transfers, the escrow call, a lookup table;
 * ETH and USDC transfers, the payout vault call; a permit, a sign-in, a digest).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractInterfaceSource } from "../../src/activity/decode/contract-interfaces.js";
import { decodeActivity } from "../../src/activity/decode/decode-activity.js";
import { readOrganizationNames } from "../../src/activity/organization-names.js";
import { TurnkeyClient } from "../../src/api/client.js";
import type { Activity } from "../../src/api/schemas.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { movableClock } from "../helpers/movable-clock.js";

let sim: RunningSimulator;
let client: TurnkeyClient;
const clock = movableClock();
clock.offset = -3_600_000;

beforeAll(async () => {
  // Started an hour ago: the queue has an hour of activities at once.
  sim = await startSimulator({ port: 0, seed: 33, clock });
  clock.offset = 0;
  const c = sim.config;
  client = new TurnkeyClient({
    baseUrl: sim.url,
    organizationId: c.organizationId,
    apiKey: { publicKey: c.apiPublicKey, privateKey: c.apiPrivateKey },
  });
});
afterAll(() => sim.close());

async function everyActivity(): Promise<Activity[]> {
  const all: Activity[] = [];
  let after: string | undefined;
  for (let page = 0; page < 20; page++) {
    const { activities } = await client.call("list_activities", {
      paginationOptions: { limit: "100", ...(after ? { after } : {}) },
    });
    all.push(...activities);
    if (activities.length < 100) break;
    after = activities.at(-1)?.id;
  }
  return all;
}

describe("the generated queue's transactions and payloads", () => {
  it("are all decoded whole, from the organization's wallets and keys, every kind present", async () => {
    const interfaces = contractInterfaceSource(client);
    const summaries: string[] = [];
    const names = await readOrganizationNames(client, Date.now);
    expect(names.notes).toEqual([]);
    const solanaSigners = new Set<string>();
    const treasury = sim.service.state.privateKeys.find((k) => k.privateKeyName === "treasury-eth");
    expect(treasury).toBeDefined();
    for (const a of await everyActivity()) {
      const decoded = await decodeActivity(a, { interfaces });
      if (!decoded) continue;
      expect(decoded.outcome, `${a.type}: ${decoded.what}`).toBe("decoded");
      summaries.push(decoded.summary.whole);
      const intent = Object.values(a.intent)[0] as Record<string, unknown>;
      if (
        intent.type === "TRANSACTION_TYPE_SOLANA" ||
        a.type === "ACTIVITY_TYPE_SOL_SEND_TRANSACTION"
      ) {
        const signer = String(intent.signWith);
        expect(names.label(signer), `${a.type} signed by ${signer}`).toMatch(
          /^(wallet account|private key) "/,
        );
        expect(decoded.json.feePayer).toBe(signer);
        solanaSigners.add(signer);
      }
    }
    // The Solana pane follows the addresses the queue signs from.
    expect([...solanaSigners].sort()).toEqual([...sim.config.solanaAddresses].sort());
    const seen = (re: RegExp) => summaries.some((x) => re.test(x));
    expect(seen(/^sends [\d.,]+ SOL to \w{32,44}/)).toBe(true);
    expect(seen(/^sends [\d.,]+ SOL to a lookup-table account/)).toBe(true);
    expect(seen(/^sends [\d.,]+ USDC to token account/)).toBe(true);
    expect(seen(/^calls (release|cancel)_escrow on Acme escrow \(devnet\)/)).toBe(true);
    expect(seen(/^sends [\d.,]+ ETH to 0x[0-9a-fA-F]{40}$/)).toBe(true);
    expect(seen(/^sends [\d.,]+ USDC to 0x[0-9a-fA-F]{40}$/)).toBe(true);
    expect(seen(/^calls (release|schedulePayout)\(.*\) on Payout vault \(Sepolia\)/)).toBe(true);
    expect(seen(/^signs an EIP-2612 permit: lets 0x[0-9a-fA-F]{40} spend [\d.,]+ USDC/)).toBe(true);
    expect(seen(/^signs an EIP-4361 sign-in message/)).toBe(true);
    expect(seen(/^signs a 32-byte digest/)).toBe(true);
  }, 60_000);
});

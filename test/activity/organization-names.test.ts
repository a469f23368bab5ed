/**
 * Names beside ids (issue 36): the organization directory against the simulator (wallets, their
 * accounts by id and address, private keys, tags, policies, users), read once and refreshed when
 * asked for after its age, bounded pages of accounts, and notes for the lists the API refuses.
 * Then the intent summary and the export line with those names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideActivity } from "../../src/activity/activity-decision.js";
import { exportSummary } from "../../src/activity/export-summary.js";
import { summarizeIntent } from "../../src/activity/intent-summary.js";
import {
  MAX_ACCOUNT_PAGES,
  OrganizationDirectory,
  OrganizationNames,
  readOrganizationNames,
} from "../../src/activity/organization-names.js";
import { TurnkeyClient } from "../../src/api/client.js";
import { generateKeyPair } from "../../src/api/stamp.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { json, scriptedServer } from "../helpers/http-server.js";

let sim: RunningSimulator;
let client: TurnkeyClient;
const asked: string[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 36 });
  const c = sim.config;
  client = new TurnkeyClient({
    baseUrl: c.baseUrl,
    organizationId: c.organizationId,
    apiKey: { publicKey: c.apiPublicKey, privateKey: c.apiPrivateKey },
    fetch: (input, init) => {
      asked.push(String(input).split("/").at(-1) ?? "");
      return fetch(input, init);
    },
  });
});
afterAll(() => sim.close());

describe("the organization directory", () => {
  it("names wallets, accounts (by id and address), private keys, tags, policies, contract interfaces and users", async () => {
    const names = await readOrganizationNames(client, () => 1000);
    const state = sim.service.state;
    expect(names.notes).toEqual([]);
    expect(names.readAt).toBe(1000);
    const [primary, cold] = state.wallets;
    expect(names.label(primary?.walletId ?? "")).toBe('wallet "Default wallet"');
    expect(names.label(cold?.walletId ?? "")).toBe('wallet "Cold storage"');
    const accounts = await client.call("list_wallet_accounts", {
      walletId: primary?.walletId,
      paginationOptions: { limit: "100" },
    });
    for (const a of accounts.accounts) {
      const record = { kind: "wallet account", name: `Default wallet ${a.path}` };
      expect(names.get(a.walletAccountId)).toEqual(record);
      expect(names.get(a.address)).toEqual(record);
    }
    // An Ethereum address in any case is the same account.
    const eth = accounts.accounts.find((a) => a.addressFormat === "ADDRESS_FORMAT_ETHEREUM");
    expect(names.get(eth?.address.toLowerCase() ?? "")?.kind).toBe("wallet account");
    const key = state.privateKeys[0];
    expect(names.label(key?.privateKeyId ?? "")).toBe(`private key "${key?.privateKeyName}"`);
    expect(names.label(state.tags[0]?.tagId ?? "")).toBe(`user tag "${state.tags[0]?.tagName}"`);
    const { policies } = await client.call("list_policies", {});
    expect(names.label(policies[0]?.policyId ?? "")).toBe(`policy "${policies[0]?.policyName}"`);
    expect(names.userNames().get(state.users[0]?.userId ?? "")).toBe(state.users[0]?.userName);
    const { smartContractInterfaces } = await client.call("list_smart_contract_interfaces", {});
    expect(smartContractInterfaces.length).toBeGreaterThan(0);
    for (const i of smartContractInterfaces) {
      const label = `smart contract interface "${i.label}"`;
      expect(names.label(i.smartContractInterfaceId)).toBe(label);
      expect(names.label(i.smartContractAddress)).toBe(label);
    }
    expect(names.get("not-an-id")).toBeUndefined();
  });

  it("is read once, and again only when asked for after its age; readings under way are shared", async () => {
    let now = 0;
    const directory = new OrganizationDirectory(client, () => now, 60_000);
    expect(directory.current().size).toBe(0);
    asked.length = 0;
    const [a, b] = await Promise.all([directory.load(), directory.load()]);
    expect(a).toBe(b);
    expect(asked.filter((op) => op === "list_wallets")).toHaveLength(1);
    now = 59_999;
    expect(directory.due()).toBe(false);
    expect(await directory.load()).toBe(a);
    expect(asked.filter((op) => op === "list_wallets")).toHaveLength(1);
    now = 60_000;
    expect(directory.due()).toBe(true);
    const again = await directory.load();
    expect(again).not.toBe(a);
    expect(again.readAt).toBe(60_000);
    expect(directory.current()).toBe(again);
    expect(asked.filter((op) => op === "list_wallets")).toHaveLength(2);
  });

  it("reads accounts in bounded pages, and says in one line per reason what it could not read", async () => {
    let pages = 0;
    const server = await scriptedServer((req, res) => {
      const op = req.url.split("/").at(-1);
      if (op === "list_wallets")
        return json(res, 200, {
          wallets: [
            {
              walletId: "w1",
              walletName: "Default wallet",
              createdAt: { seconds: "1", nanos: "0" },
              updatedAt: { seconds: "1", nanos: "0" },
              exported: false,
              imported: false,
            },
          ],
        });
      if (op === "list_wallet_accounts") {
        pages += 1;
        const ts = { seconds: "1", nanos: "0" };
        return json(res, 200, {
          accounts: Array.from({ length: 100 }, (_, i) => ({
            walletAccountId: `acct-${pages}-${i}`,
            organizationId: "org-1",
            walletId: "w1",
            curve: "CURVE_SECP256K1",
            pathFormat: "PATH_FORMAT_BIP32",
            path: `m/44'/60'/0'/0/${(pages - 1) * 100 + i}`,
            addressFormat: "ADDRESS_FORMAT_ETHEREUM",
            address: `0x${String(pages * 1000 + i).padStart(40, "0")}`,
            createdAt: ts,
            updatedAt: ts,
            ...(i === 0 ? { name: "treasury" } : {}),
          })),
        });
      }
      json(res, 403, { code: 7, message: "request not authorized" });
    });
    try {
      const scripted = new TurnkeyClient({
        baseUrl: server.url,
        organizationId: "org-1",
        apiKey: generateKeyPair(),
      });
      const names = await readOrganizationNames(scripted, () => 0);
      expect(pages).toBe(MAX_ACCOUNT_PAGES);
      expect(names.get("acct-1-0")).toEqual({ kind: "wallet account", name: "treasury" });
      expect(names.label("acct-10-99")).toBe(`wallet account "Default wallet m/44'/60'/0'/0/999"`);
      expect(names.notes).toEqual([
        "names of users, private keys, tags, smart contract interfaces and policies not shown: PERMISSION_DENIED (HTTP 403): request not authorized (list_users, list_private_keys, list_user_tags, list_smart_contract_interfaces, list_policies)",
      ]);
    } finally {
      await server.close();
    }
  });
});

describe("names in what a person judges", () => {
  const names = new OrganizationNames(
    [
      ["f3c83f03-6c8e-4a1e-9a57-0c2bbd4d9f11", { kind: "wallet", name: "Default wallet" }],
      ["0xAbC0000000000000000000000000000000000001", { kind: "wallet account", name: "hot" }],
    ],
    [],
    0,
  );
  const target = `04${"d7172fc49c12a6af".repeat(8)}`;
  const exportWallet = {
    type: "ACTIVITY_TYPE_EXPORT_WALLET",
    intent: {
      exportWalletIntent: {
        walletId: "f3c83f03-6c8e-4a1e-9a57-0c2bbd4d9f11",
        targetPublicKey: target,
      },
    },
  };

  it("the intent names a wallet beside its id and an account beside its address; the key whole", () => {
    expect(summarizeIntent(exportWallet.intent, { names })).toEqual([
      'walletId         f3c83f03-6c8e-4a1e-9a57-0c2bbd4d9f11 (wallet "Default wallet")',
      `targetPublicKey  ${target}`,
    ]);
    expect(
      summarizeIntent(
        { signRawPayloadIntentV2: { signWith: "0xabc0000000000000000000000000000000000001" } },
        { names },
      ),
    ).toEqual(['signWith  0xabc0000000000000000000000000000000000001 (wallet account "hot")']);
  });

  it("the export line and the decision name the wallet", () => {
    expect(exportSummary(exportWallet, names)).toBe(
      `the mnemonic of wallet f3c83f03-6c8e-4a1e-9a57-0c2bbd4d9f11 "Default wallet" (every account's key) leaves Turnkey, encrypted to target public key ${target}`,
    );
    const activity = {
      ...exportWallet,
      id: "a34ca61b-0000-4000-8000-000000000001",
      organizationId: "org-1",
      status: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
      result: {},
      votes: [],
      fingerprint: `sha256:${"ab".repeat(32)}`,
      canApprove: true,
      canReject: true,
      createdAt: "0",
      updatedAt: "0",
    };
    const decision = decideActivity(activity, { names, now: 0 });
    expect(decision.intentLines[0]).toContain('(wallet "Default wallet")');
  });
});

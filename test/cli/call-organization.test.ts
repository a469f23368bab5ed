/**
 * Every operation of the spec through `tvcwatch call` against the simulator, as a user would run
 * it: the program spawned with a --config file, bodies on the command line, JSON on stdout. Also
 * the state each call leaves: a created key stamps the next call, a deleted one is refused.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  decryptCredentialBundle,
  decryptExportBundle,
  decryptSecretBundle,
  generateP256KeyPair,
} from "@turnkey/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationNames, operations } from "../../src/api/operations.js";
import { generateKeyPair, publicKeyOf } from "../../src/api/stamp.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { makeOidcToken } from "../helpers/oidc-token.js";
import { runCli } from "../helpers/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-call-org-"));
const configPath = join(dir, "sim.json");
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 11, statePath: join(dir, "state.json") });
  writeFileSync(configPath, JSON.stringify(sim.config), { mode: 0o600 });
});
afterAll(() => sim.close());

const state = () => sim.service.state;
const userId = (name: string) => state().users.find((u) => u.userName === name)?.userId as string;

/** `tvcwatch --config sim.json call <op> --body <json>`; the parsed stdout, or the failure. */
/** The operations this file called and got a success for. */
const succeeded = new Set<string>();

async function call(op: string, body?: unknown, env: Record<string, string> = {}) {
  const args = ["--config", configPath, "call", op, "--reveal-secrets"];
  if (body !== undefined) args.push("--body", JSON.stringify(body));
  const r = await runCli(args, { env, timeoutMs: 30_000 });
  if (r.code === 0) succeeded.add(op);
  return { ...r, json: r.code === 0 ? JSON.parse(r.stdout) : undefined };
}

/** The result object of a completed activity printed by `call`. */
function resultOf(out: {
  json?: { activity: { status: string; result: Record<string, unknown> } };
}) {
  expect(out.json?.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the fields of its own result.
  return Object.values(out.json?.activity.result ?? {})[0] as Record<string, any>;
}

// Each test spawns the program several times; on a loaded machine that takes a while.
describe("tvcwatch call against the simulator: every operation", { timeout: 90_000 }, () => {
  it("create_api_keys then the new key stamps; delete_api_keys then it is refused", async () => {
    const pair = generateKeyPair();
    const created = await call("create_api_keys", {
      userId: userId("ci-deployer"),
      apiKeys: [{ apiKeyName: "ci", publicKey: pair.publicKey, curveType: "API_KEY_CURVE_P256" }],
    });
    expect(created.stderr).toBe("");
    const [apiKeyId] = resultOf(created).apiKeyIds as string[];
    const asCi = {
      TURNKEY_API_PUBLIC_KEY: pair.publicKey,
      TURNKEY_API_PRIVATE_KEY: pair.privateKey,
    };
    const who = await call("whoami", undefined, asCi);
    expect(who.json.username).toBe("ci-deployer");
    await call("delete_api_keys", { userId: userId("ci-deployer"), apiKeyIds: [apiKeyId] });
    const refused = await call("whoami", undefined, asCi);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/could not find public key in organization/);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("stamp_login, create_read_only_session and oauth give working credentials", async () => {
    const session = generateKeyPair();
    const login = resultOf(await call("stamp_login", { publicKey: session.publicKey }));
    expect((login.session as string).split(".")).toHaveLength(3);
    const asSession = {
      TURNKEY_API_PUBLIC_KEY: session.publicKey,
      TURNKEY_API_PRIVATE_KEY: session.privateKey,
    };
    expect((await call("whoami", undefined, asSession)).json.username).toBe("oncall-root");

    const ro = resultOf(await call("create_read_only_session", {}));
    expect(Object.keys(ro).sort()).toEqual([
      "organizationId",
      "organizationName",
      "session",
      "sessionExpiry",
      "userId",
      "username",
    ]);

    const target = generateP256KeyPair();
    const token = makeOidcToken({
      iss: "https://accounts.google.com",
      sub: "someone-new",
      aud: "sim-google-client.apps.example",
      exp: Math.floor(Date.now() / 1000) + 300,
    });
    const oauth = resultOf(
      await call("oauth", {
        oidcToken: token,
        targetPublicKey: target.publicKeyUncompressed,
        apiKeyName: "from google",
      }),
    );
    const privateKey = decryptCredentialBundle(oauth.credentialBundle, target.privateKey);
    const asOauth = {
      TURNKEY_API_PUBLIC_KEY: publicKeyOf(privateKey),
      TURNKEY_API_PRIVATE_KEY: privateKey,
    };
    expect((await call("whoami", undefined, asOauth)).json.userId).toBe(oauth.userId);
  });

  it("export_wallet and export_secrets open with @turnkey/crypto and the printed signer key", async () => {
    const target = generateP256KeyPair();
    const wallet = state().wallets[0];
    const exported = resultOf(
      await call("export_wallet", {
        walletId: wallet?.walletId,
        targetPublicKey: target.publicKeyUncompressed,
      }),
    );
    const mnemonic = await decryptExportBundle({
      exportBundle: exported.exportBundle,
      embeddedKey: target.privateKey,
      organizationId: sim.config.organizationId,
      returnMnemonic: true,
      dangerouslyOverrideSignerPublicKey: sim.config.signerPublicKey,
    });
    expect(mnemonic.split(" ")).toHaveLength(12);
    const secret = state().secrets[0];
    const payloads = resultOf(
      await call("export_secrets", {
        secrets: [
          {
            secretId: secret?.secretId,
            targetPublicKey: target.publicKeyUncompressed,
            encryptionSuite: "TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1",
          },
        ],
      }),
    ).secretPayloads as string[];
    const value = await decryptSecretBundle({
      secretPayload: payloads[0] as string,
      embeddedPrivateKey: target.privateKey,
      organizationId: sim.config.organizationId,
      dangerouslyOverrideSignerPublicKey: sim.config.signerPublicKey,
    });
    expect(value).toBe(secret?.value);
  });

  it("set_organization_feature waits for the second root user; approve completes, reject rejects", async () => {
    const lead = generateKeyPair();
    await call("create_api_keys", {
      userId: userId("sre-lead"),
      apiKeys: [{ apiKeyName: "lead", publicKey: lead.publicKey, curveType: "API_KEY_CURVE_P256" }],
    });
    const submitted = await call("set_organization_feature", {
      name: "FEATURE_NAME_SMS_AUTH",
      value: "true",
    });
    expect(submitted.json.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const approved = await call(
      "approve_activity",
      { fingerprint: submitted.json.activity.fingerprint },
      { TURNKEY_API_PUBLIC_KEY: lead.publicKey, TURNKEY_API_PRIVATE_KEY: lead.privateKey },
    );
    const features = resultOf(approved).features as { name: string; value: string }[];
    expect(features).toContainEqual({ name: "FEATURE_NAME_SMS_AUTH", value: "true" });

    const second = await call("set_organization_feature", {
      name: "FEATURE_NAME_SMS_AUTH",
      value: "false",
    });
    const rejected = await call(
      "reject_activity",
      { fingerprint: second.json.activity.fingerprint },
      { TURNKEY_API_PUBLIC_KEY: lead.publicKey, TURNKEY_API_PRIVATE_KEY: lead.privateKey },
    );
    expect(rejected.json.activity.status).toBe("ACTIVITY_STATUS_REJECTED");
    const fetched = await call("get_activity", { activityId: second.json.activity.id });
    expect(fetched.json.activity.status).toBe("ACTIVITY_STATUS_REJECTED");
    expect(state().features).toContainEqual({ name: "FEATURE_NAME_SMS_AUTH", value: "true" });
  });

  it("create_smart_contract_interface and delete_smart_contract_interface", async () => {
    const abi = JSON.stringify([{ type: "function", name: "approve", inputs: [] }]);
    const sci = resultOf(
      await call("create_smart_contract_interface", {
        smartContractAddress: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
        smartContractInterface: abi,
        type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
        label: "USDT",
      }),
    );
    const deleted = resultOf(
      await call("delete_smart_contract_interface", {
        smartContractInterfaceId: sci.smartContractInterfaceId,
      }),
    );
    expect(deleted.smartContractInterfaceId).toBe(sci.smartContractInterfaceId);
  });

  it("update_oauth2_credential, update_webhook_endpoint and list_webhook_endpoints", async () => {
    const credential = state().oauth2Credentials[0];
    resultOf(
      await call("update_oauth2_credential", {
        oauth2CredentialId: credential?.oauth2CredentialId,
        provider: "OAUTH2_PROVIDER_X",
        clientId: "rotated-client",
        encryptedClientSecret: "abcd",
      }),
    );
    expect(state().oauth2Credentials[0]?.clientId).toBe("rotated-client");

    const endpoint = state().webhookEndpoints[0];
    resultOf(
      await call("update_webhook_endpoint", {
        endpointId: endpoint?.endpointId,
        url: "https://hooks.acme-payments.example/v2",
      }),
    );
    const hooks = await call("list_webhook_endpoints");
    expect(hooks.json.webhookEndpoints[0]).toMatchObject({
      url: "https://hooks.acme-payments.example/v2",
      name: endpoint?.name,
    });
  });

  it("create_user_tag, create_invitations and the queries that show them", async () => {
    const tag = resultOf(
      await call("create_user_tag", { userTagName: "pager", userIds: [userId("sre-lead")] }),
    );
    const tags = await call("list_user_tags");
    expect(tags.json.userTags.map((t: { tagId: string }) => t.tagId)).toContain(tag.userTagId);

    const invited = resultOf(
      await call("create_invitations", {
        invitations: [
          {
            receiverUserName: "auditor",
            receiverUserEmail: "auditor@example.com",
            receiverUserTags: [],
            accessType: "ACCESS_TYPE_API",
            senderUserId: userId("oncall-root"),
          },
        ],
      }),
    );
    expect(invited.invitationIds).toHaveLength(1);

    const profile = state().sessionProfiles[1];
    const got = await call("get_session_profile", { sessionProfileId: profile?.sessionProfileId });
    expect(got.json.sessionProfile.sessionProfileName).toBe(profile?.sessionProfileName);

    const keys = await call("list_private_keys");
    const formats = keys.json.privateKeys.flatMap((k: { addresses: { format: string }[] }) =>
      k.addresses.map((a) => a.format),
    );
    expect(formats).toEqual(
      expect.arrayContaining(["ADDRESS_FORMAT_ETHEREUM", "ADDRESS_FORMAT_SOLANA"]),
    );
  });

  it("the observability queries and the auth proxy, each answer in its documented shape", async () => {
    const c = sim.config;
    const apps = await call("list_tvc_apps");
    const appId = apps.json.tvcApps[0].id as string;
    const bodies: [string, unknown][] = [
      ["list_tvc_app_deployments", { appId }],
      ["get_tvc_deployment", { deploymentId: c.deploymentId }],
      ["get_app_status", { appId }],
      ["get_tvc_deployment_debug_logs", { deploymentId: c.deploymentId, tailLines: 5 }],
      ["list_email_events", { email: c.emails[0], paginationOptions: { limit: "5" } }],
      ["list_sol_transaction_history", { address: c.solanaAddresses[0], caip2: c.caip2 }],
      ["list_activities", { paginationOptions: { limit: "5" } }],
      ["wallet_kit_config", undefined],
    ];
    for (const [op, body] of bodies) {
      const r = await call(op, body);
      expect([op, r.code, r.stderr]).toEqual([op, 0, ""]);
      const schema = operations[op as keyof typeof operations];
      expect("response" in schema && schema.response.safeParse(r.json).success).toBe(true);
    }
  });

  it("list_wallets, get_wallet, list_wallet_accounts and list_policies: the names the organization keeps", async () => {
    const wallets = await call("list_wallets");
    expect(wallets.stderr).toBe("");
    const first = state().wallets[0];
    expect(wallets.json.wallets.map((w: { walletId: string }) => w.walletId)).toContain(
      first?.walletId,
    );
    const got = await call("get_wallet", { walletId: first?.walletId });
    expect(got.json.wallet.walletName).toBe(first?.walletName);
    const accounts = await call("list_wallet_accounts", {
      walletId: first?.walletId,
      paginationOptions: { limit: "5" },
    });
    expect(accounts.json.accounts.length).toBeGreaterThan(0);
    for (const account of accounts.json.accounts) expect(account.walletId).toBe(first?.walletId);
    const policies = await call("list_policies");
    expect(Array.isArray(policies.json.policies)).toBe(true);
    for (const [op, r] of [
      ["list_wallets", wallets],
      ["get_wallet", got],
      ["list_wallet_accounts", accounts],
      ["list_policies", policies],
    ] as const) {
      const schema = operations[op];
      expect([op, schema.response.safeParse(r.json).success]).toEqual([op, true]);
    }
  });

  it("get_organization_configs and list_users: the root quorum, and who its members are", async () => {
    const configs = await call("get_organization_configs");
    expect(configs.json.configs.quorum).toEqual({
      threshold: 2,
      userIds: [userId("oncall-root"), userId("sre-lead")],
    });
    const users = await call("list_users");
    const names = (users.json.users as { userName: string }[]).map((u) => u.userName);
    expect(names).toEqual(expect.arrayContaining(["oncall-root", "sre-lead", "ci-deployer"]));
  });

  it("list_smart_contract_interfaces and get_smart_contract_interface: the ABI and IDL it stores", async () => {
    const listed = await call("list_smart_contract_interfaces");
    const interfaces = listed.json.smartContractInterfaces as {
      smartContractInterfaceId: string;
      label: string;
    }[];
    expect(interfaces.map((i) => i.label)).toEqual([
      "Payout vault (Sepolia)",
      "Acme escrow (devnet)",
    ]);
    const one = await call("get_smart_contract_interface", {
      smartContractInterfaceId: interfaces[1]?.smartContractInterfaceId,
    });
    expect(JSON.parse(one.json.smartContractInterface.smartContractInterface).metadata.name).toBe(
      "acme_escrow",
    );
  });

  it("covered every operation of the table", () => {
    expect(operationNames.filter((n) => !succeeded.has(n))).toEqual([]);
  });

  it("redacts sessions, bundles and tokens unless --reveal-secrets, saying so on stderr", async () => {
    const r = await runCli(
      [
        "--config",
        configPath,
        "call",
        "stamp_login",
        "--body",
        JSON.stringify({ publicKey: generateKeyPair().publicKey }),
      ],
      { timeoutMs: 30_000 },
    );
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout).activity.result.stampLoginResult.session as string;
    expect(printed).toMatch(/^\[redacted: \d+ characters\]$/);
    expect(r.stderr).toBe("tvcwatch: redacted session; add --reveal-secrets to print it\n");
    const listed = await runCli(
      [
        "--config",
        configPath,
        "call",
        "list_activities",
        "--body",
        '{"paginationOptions":{"limit":"100"}}',
      ],
      { timeoutMs: 30_000 },
    );
    expect(listed.stdout).not.toMatch(/eyJ[\w-]+\.eyJ/);
    expect(listed.stdout).toContain("[redacted:");
  });

  it("errors come back as one line with the API's code, exit status 1", async () => {
    const r = await call("export_wallet", {
      walletId: "no-such-wallet",
      targetPublicKey: generateP256KeyPair().publicKeyUncompressed,
    });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/wallet no-such-wallet not found/);
    // Too big for a command-line argument: from a file, as a user would.
    const bodyFile = join(dir, "big-abi.json");
    writeFileSync(
      bodyFile,
      JSON.stringify({
        smartContractAddress: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
        smartContractInterface: JSON.stringify(["x".repeat(420 * 1024)]),
        type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
        label: "too big",
      }),
    );
    const big = await runCli(
      ["--config", configPath, "call", "create_smart_contract_interface", "--body-file", bodyFile],
      { timeoutMs: 30_000 },
    );
    expect(big.code).toBe(1);
    expect(big.stderr).toMatch(/limit is 400kb/);
  });
});

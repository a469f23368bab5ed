/**
 * Every operation the simulator serves, driven through Turnkey's published client (@turnkey/http
 * with @turnkey/api-key-stamper; the auth proxy with fetch, which @turnkey/http does not cover),
 * and each response validated against Turnkey's own swagger with a JSON-schema validator (Ajv,
 * draft-04): required fields, types, enums, and no field the swagger does not define. The
 * generated activity queue is checked the same way, activity by activity, and for intents and
 * results of each activity's own type made of the organization's own records.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { generateP256KeyPair } from "@turnkey/crypto";
import { TurnkeyClient } from "@turnkey/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationNames } from "../../src/api/operations.js";
import { generateKeyPair } from "../../src/api/stamp.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { movableClock } from "../helpers/movable-clock.js";
import { makeOidcToken } from "../helpers/oidc-token.js";
import {
  loadSwagger,
  pathSchemas,
  type Schema,
  type SwaggerValidator,
  swaggerValidator,
} from "../helpers/turnkey-swagger.js";

const publicApi = loadSwagger("public_api.swagger.json");
const authProxy = loadSwagger("auth_proxy.swagger.json");
const publicValidator = swaggerValidator(publicApi, { closed: true });
const authProxyValidator = swaggerValidator(authProxy, { closed: true });

/** The host's clock plus an offset the test moves, so the generated queue has a history. */
const clock = movableClock();

let sim: RunningSimulator;
let org: string;
let root: TurnkeyClient;
let lead: TurnkeyClient;
const ts = () => String(clock.now());

/** The operations this file validated a response of. */
const validated = new Set<string>();

/** Validates `response` against the swagger's 200 response of the operation's path. */
function conforms(name: string, response: unknown): void {
  const path = name === "wallet_kit_config" ? "/v1/wallet_kit_config" : pathOf(name);
  const doc = name === "wallet_kit_config" ? authProxy : publicApi;
  const validator: SwaggerValidator =
    name === "wallet_kit_config" ? authProxyValidator : publicValidator;
  const { response: schema } = pathSchemas(doc, path);
  expect({ name, errors: validator.errors(schema as Schema, response) }).toEqual({
    name,
    errors: [],
  });
  validated.add(name);
}

function pathOf(name: string): string {
  const submit = `/public/v1/submit/${name}`;
  return publicApi.paths[submit] ? submit : `/public/v1/query/${name}`;
}

const state = () => sim.service.state;
const userId = (name: string) => state().users.find((u) => u.userName === name)?.userId ?? "";

beforeAll(async () => {
  clock.offset = -3_600_000;
  sim = await startSimulator({ port: 0, seed: 21, clock, logRate: 20 });
  clock.offset = 0;
  org = sim.config.organizationId;
  const stamper = (pair: { publicKey: string; privateKey: string }) =>
    new ApiKeyStamper({ apiPublicKey: pair.publicKey, apiPrivateKey: pair.privateKey });
  root = new TurnkeyClient(
    { baseUrl: sim.url },
    stamper({ publicKey: sim.config.apiPublicKey, privateKey: sim.config.apiPrivateKey }),
  );
  lead = new TurnkeyClient({ baseUrl: sim.url }, stamper(sim.service.scenario.secondRootKey));
});
afterAll(() => sim.close());

describe("every response of the simulator validates against Turnkey's swagger", () => {
  it("the queries", async () => {
    const s = sim.service.scenario;
    conforms("whoami", await root.getWhoami({ organizationId: org }));
    conforms(
      "get_session_profile",
      await root.getSessionProfile({
        organizationId: org,
        sessionProfileId: state().sessionProfiles[0]?.sessionProfileId ?? "",
      }),
    );
    conforms("list_webhook_endpoints", await root.listWebhookEndpoints({ organizationId: org }));
    conforms("list_private_keys", await root.getPrivateKeys({ organizationId: org }));
    conforms("list_user_tags", await root.listUserTags({ organizationId: org }));
    // Wallets, their accounts and the policies, by name (issue 36: names beside ids).
    const wallets = await root.getWallets({ organizationId: org });
    conforms("list_wallets", wallets);
    expect(wallets.wallets.map((w) => w.walletName)).toEqual(["Default wallet", "Cold storage"]);
    const first = wallets.wallets[0]?.walletId ?? "";
    conforms("get_wallet", await root.getWallet({ organizationId: org, walletId: first }));
    const accounts = await root.getWalletAccounts({
      organizationId: org,
      walletId: first,
      includeWalletDetails: true,
      paginationOptions: { limit: "100" },
    });
    conforms("list_wallet_accounts", accounts);
    expect(accounts.accounts.map((a) => a.addressFormat)).toEqual([
      "ADDRESS_FORMAT_ETHEREUM",
      "ADDRESS_FORMAT_SOLANA",
    ]);
    conforms("list_policies", await root.getPolicies({ organizationId: org }));
    // The ABIs and IDLs the organization stores: what a vote on a contract call is decoded with.
    const interfaces = await root.getSmartContractInterfaces({ organizationId: org });
    conforms("list_smart_contract_interfaces", interfaces);
    expect(interfaces.smartContractInterfaces.map((i) => i.type)).toEqual([
      "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
      "SMART_CONTRACT_INTERFACE_TYPE_SOLANA",
    ]);
    conforms(
      "get_smart_contract_interface",
      await root.getSmartContractInterface({
        organizationId: org,
        smartContractInterfaceId:
          interfaces.smartContractInterfaces[0]?.smartContractInterfaceId ?? "",
      }),
    );
    // The root quorum and every user, whole: what the activity commands name voters from.
    const configs = await root.getOrganizationConfigs({ organizationId: org });
    conforms("get_organization_configs", configs);
    expect(configs.configs.quorum).toEqual({
      threshold: 2,
      userIds: [userId("oncall-root"), userId("sre-lead")],
    });
    const users = await root.getUsers({ organizationId: org });
    conforms("list_users", users);
    expect(users.users.map((u) => u.userName)).toEqual(["oncall-root", "sre-lead", "ci-deployer"]);
    expect(users.users[1]?.apiKeys.map((k) => k.credential.publicKey)).toContain(
      s.secondRootKey.publicKey,
    );
    const apps = await root.getTvcApps({ organizationId: org });
    conforms("list_tvc_apps", apps);
    expect(apps.tvcApps).toHaveLength(s.apps.length);
    for (const app of apps.tvcApps) {
      const deployments = await root.getTvcAppDeployments({ organizationId: org, appId: app.id });
      conforms("list_tvc_app_deployments", deployments);
      conforms("get_app_status", await root.getAppStatus({ organizationId: org, appId: app.id }));
      for (const d of deployments.tvcDeployments) {
        expect(d.manifestApprovals.length).toBe(d.manifestSet.threshold);
        conforms(
          "get_tvc_deployment",
          await root.getTvcDeployment({ organizationId: org, deploymentId: d.id }),
        );
      }
    }
    conforms(
      "get_tvc_deployment_debug_logs",
      await root.getTvcDeploymentDebugLogs({
        organizationId: org,
        deploymentId: s.deploymentId,
        tailLines: 50,
      }),
    );
    for (const email of s.emails) {
      conforms("list_email_events", await root.listEmailEvents({ organizationId: org, email }));
    }
    for (const address of sim.service.solanaAddresses) {
      conforms(
        "list_sol_transaction_history",
        await root.listSolTransactionHistory({
          organizationId: org,
          address,
          caip2: "solana:devnet",
          paginationOptions: { limit: "100" },
        }),
      );
    }
    const res = await fetch(`${sim.url}/v1/wallet_kit_config`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Auth-Proxy-Config-Id": sim.config.authProxyConfigId,
      },
      body: "{}",
    });
    conforms("wallet_kit_config", await res.json());
  });

  it("the activities that change the organization", async () => {
    const target = generateP256KeyPair();
    const envelope = (type: string, parameters: object) => ({
      type,
      timestampMs: ts(),
      organizationId: org,
      parameters,
    });
    const key = generateKeyPair();
    const created = await root.createApiKeys(
      envelope("ACTIVITY_TYPE_CREATE_API_KEYS_V2", {
        userId: userId("ci-deployer"),
        apiKeys: [
          { apiKeyName: "ci 2026", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" },
        ],
      }) as Parameters<TurnkeyClient["createApiKeys"]>[0],
    );
    conforms("create_api_keys", created);
    conforms(
      "delete_api_keys",
      await root.deleteApiKeys(
        envelope("ACTIVITY_TYPE_DELETE_API_KEYS", {
          userId: userId("ci-deployer"),
          apiKeyIds: created.activity.result.createApiKeysResult?.apiKeyIds ?? [],
        }) as Parameters<TurnkeyClient["deleteApiKeys"]>[0],
      ),
    );
    conforms(
      "oauth",
      await root.oauth(
        envelope("ACTIVITY_TYPE_OAUTH", {
          oidcToken: makeOidcToken({
            iss: "https://accounts.google.com",
            sub: "104729834751029384756",
            aud: "sim-google-client.apps.example",
            exp: Math.floor(clock.now() / 1000) + 600,
          }),
          targetPublicKey: target.publicKeyUncompressed,
        }) as Parameters<TurnkeyClient["oauth"]>[0],
      ),
    );
    conforms(
      "stamp_login",
      await root.stampLogin(
        envelope("ACTIVITY_TYPE_STAMP_LOGIN", {
          publicKey: generateKeyPair().publicKey,
        }) as Parameters<TurnkeyClient["stampLogin"]>[0],
      ),
    );
    conforms(
      "create_read_only_session",
      await root.createReadOnlySession(
        envelope("ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION", {}) as Parameters<
          TurnkeyClient["createReadOnlySession"]
        >[0],
      ),
    );
    conforms(
      "export_wallet",
      await root.exportWallet(
        envelope("ACTIVITY_TYPE_EXPORT_WALLET", {
          walletId: state().wallets[0]?.walletId,
          targetPublicKey: target.publicKeyUncompressed,
          language: "MNEMONIC_LANGUAGE_ENGLISH",
        }) as Parameters<TurnkeyClient["exportWallet"]>[0],
      ),
    );
    // Its request defines no generateAppProofs: asking anyway is ignored, as the API ignores it.
    const secrets = await root.exportSecrets({
      ...envelope("ACTIVITY_TYPE_EXPORT_SECRETS", {
        secrets: state().secrets.map((x) => ({
          secretId: x.secretId,
          targetPublicKey: target.publicKeyUncompressed,
          encryptionSuite: "TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1",
        })),
      }),
      generateAppProofs: true,
    } as Parameters<TurnkeyClient["exportSecrets"]>[0]);
    conforms("export_secrets", secrets);
    expect(secrets.activity.appProofs).toBeUndefined();
    const proved = await root.createReadOnlySession({
      ...envelope("ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION", {}),
      generateAppProofs: true,
    } as Parameters<TurnkeyClient["createReadOnlySession"]>[0]);
    conforms("create_read_only_session", proved);
    expect(proved.activity.appProofs).toHaveLength(1);
    const sci = await root.createSmartContractInterface(
      envelope("ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE", {
        smartContractAddress: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
        smartContractInterface: '[{"type":"function","name":"transfer","inputs":[]}]',
        type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
        label: "USDC",
      }) as Parameters<TurnkeyClient["createSmartContractInterface"]>[0],
    );
    conforms("create_smart_contract_interface", sci);
    conforms(
      "delete_smart_contract_interface",
      await root.deleteSmartContractInterface(
        envelope("ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE", {
          smartContractInterfaceId:
            sci.activity.result.createSmartContractInterfaceResult?.smartContractInterfaceId,
        }) as Parameters<TurnkeyClient["deleteSmartContractInterface"]>[0],
      ),
    );
    conforms(
      "update_oauth2_credential",
      await root.updateOauth2Credential(
        envelope("ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL", {
          oauth2CredentialId: state().oauth2Credentials[0]?.oauth2CredentialId,
          provider: "OAUTH2_PROVIDER_DISCORD",
          clientId: "discord-client",
          encryptedClientSecret: "00ff",
        }) as Parameters<TurnkeyClient["updateOauth2Credential"]>[0],
      ),
    );
    conforms(
      "update_webhook_endpoint",
      await root.updateWebhookEndpoint(
        envelope("ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT", {
          endpointId: state().webhookEndpoints[0]?.endpointId,
          isActive: false,
        }) as Parameters<TurnkeyClient["updateWebhookEndpoint"]>[0],
      ),
    );
    const tag = await root.createUserTag(
      envelope("ACTIVITY_TYPE_CREATE_USER_TAG", {
        userTagName: "payments-oncall",
        userIds: [userId("oncall-root")],
      }) as Parameters<TurnkeyClient["createUserTag"]>[0],
    );
    conforms("create_user_tag", tag);
    conforms(
      "create_invitations",
      await root.createInvitations(
        envelope("ACTIVITY_TYPE_CREATE_INVITATIONS", {
          invitations: [
            {
              receiverUserName: "jo",
              receiverUserEmail: "jo@acme-payments.example",
              receiverUserTags: [tag.activity.result.createUserTagResult?.userTagId],
              accessType: "ACCESS_TYPE_WEB",
              senderUserId: userId("oncall-root"),
            },
          ],
        }) as Parameters<TurnkeyClient["createInvitations"]>[0],
      ),
    );
  });

  it("the root quorum: set_organization_feature, then approve_activity and reject_activity by the other root user", async () => {
    const submit = (value: string) =>
      root.setOrganizationFeature({
        type: "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE",
        timestampMs: ts(),
        organizationId: org,
        parameters: { name: "FEATURE_NAME_WEBAUTHN_ORIGINS", value },
      });
    const waiting = await submit("https://app.acme-payments.example");
    conforms("set_organization_feature", waiting);
    const vote = { timestampMs: ts(), organizationId: org };
    const approved = await lead.approveActivity({
      type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
      ...vote,
      parameters: { fingerprint: waiting.activity.fingerprint },
    });
    conforms("approve_activity", approved);
    expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const other = await submit("https://evil.example");
    const rejected = await lead.rejectActivity({
      type: "ACTIVITY_TYPE_REJECT_ACTIVITY",
      ...vote,
      parameters: { fingerprint: other.activity.fingerprint },
    });
    conforms("reject_activity", rejected);
    expect(rejected.activity.status).toBe("ACTIVITY_STATUS_REJECTED");
    conforms(
      "get_activity",
      await root.getActivity({ organizationId: org, activityId: approved.activity.id }),
    );
  });

  it("the generated queue: every activity of the last hour, in every status", async () => {
    const seen = new Set<string>();
    const statuses = new Set<string>();
    let after: string | undefined;
    for (;;) {
      const page = await root.getActivities({
        organizationId: org,
        paginationOptions: { limit: "100", ...(after ? { after } : {}) },
      });
      conforms("list_activities", page);
      for (const a of page.activities) {
        seen.add(a.type);
        statuses.add(a.status);
      }
      if (page.activities.length < 100) break;
      after = page.activities.at(-1)?.id;
    }
    // Every settled status is in the last hour; CREATED and PENDING too when one was created or
    // is running at this moment.
    expect([...statuses]).toEqual(
      expect.arrayContaining([
        "ACTIVITY_STATUS_COMPLETED",
        "ACTIVITY_STATUS_FAILED",
        "ACTIVITY_STATUS_CONSENSUS_NEEDED",
        "ACTIVITY_STATUS_REJECTED",
      ]),
    );
    for (const s of statuses) {
      expect(s).toMatch(
        /^ACTIVITY_STATUS_(COMPLETED|FAILED|CONSENSUS_NEEDED|REJECTED|CREATED|PENDING)$/,
      );
    }
    expect(seen.size).toBeGreaterThanOrEqual(10);
    // A generated activity awaiting consensus, approved by the demo key.
    const waiting = await root.getActivities({
      organizationId: org,
      filterByStatus: ["ACTIVITY_STATUS_CONSENSUS_NEEDED"],
      paginationOptions: { limit: "100" },
    });
    const generated = waiting.activities.find((a) => a.canApprove);
    expect(generated).toBeDefined();
    const approved = await root.approveActivity({
      type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
      timestampMs: ts(),
      organizationId: org,
      parameters: { fingerprint: generated?.fingerprint ?? "" },
    });
    conforms("approve_activity", approved);
    expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });

  it("a path it does not serve: NOT_FOUND in Turnkey's error shape, naming the path", async () => {
    const path = "/public/v1/query/get_wallet_account";
    const res = await fetch(`${sim.url}${path}`, { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(publicValidator.errors({ $ref: "#/definitions/rpcStatus" }, body)).toEqual([]);
    expect(body).toEqual({ code: 5, message: `no operation at ${path}`, details: [] });
  });

  it("covered every operation of the table", () => {
    expect([...validated].sort()).toEqual([...operationNames].sort());
  });
});

/** camelCase of an activity type without its prefix and version: SIGN_TRANSACTION_V2 -> signTransaction. */
const stem = (type: string) =>
  type
    .replace(/^ACTIVITY_TYPE_/, "")
    .replace(/_V\d+$/, "")
    .toLowerCase()
    .replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

describe("the generated activity queue is made of real activities", () => {
  it("each has the intent and result of its own type, naming the organization's records", async () => {
    const page = await root.getActivities({
      organizationId: org,
      paginationOptions: { limit: "100" },
    });
    const walletIds = state().wallets.map((w) => w.walletId);
    const userIds = state().users.map((u) => u.userId);
    for (const a of page.activities) {
      const version = /_V(\d+)$/.exec(a.type)?.[1];
      const intentKeys = Object.keys(a.intent);
      expect(intentKeys).toEqual([`${stem(a.type)}Intent${version ? `V${version}` : ""}`]);
      const intent = Object.values(a.intent)[0] as Record<string, unknown>;
      const result = Object.values(a.result)[0] as Record<string, unknown> | undefined;
      if (a.status === "ACTIVITY_STATUS_COMPLETED") {
        expect(Object.keys(a.result)).toEqual([`${stem(a.type)}Result`]);
      } else {
        expect(a.result).toEqual({});
      }
      if ("walletId" in intent) expect(walletIds).toContain(intent.walletId);
      if ("userId" in intent) expect(userIds).toContain(intent.userId);
      if (
        a.type === "ACTIVITY_TYPE_SIGN_TRANSACTION_V2" &&
        intent.type === "TRANSACTION_TYPE_SOLANA"
      )
        expect(sim.service.solanaAddresses).toContain(intent.signWith);
      if (a.type === "ACTIVITY_TYPE_EXPORT_WALLET" && result)
        expect(result.walletId).toBe(intent.walletId);
      for (const v of a.votes) {
        expect(userIds).toContain(v.userId);
        expect(v.user.userName).toBeTruthy();
      }
    }
  });
});

/**
 * The simulator's organization, driven end to end by Turnkey's published client (@turnkey/http
 * with @turnkey/api-key-stamper) and opened with @turnkey/crypto: every activity and query of the
 * spec, and the state each leaves behind, including across a restart with --state.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { validateMnemonic } from "@scure/bip39";
import { wordlist as japanese } from "@scure/bip39/wordlists/japanese.js";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import {
  computeActivityFingerprint,
  decryptCredentialBundle,
  decryptExportBundle,
  decryptSecretBundle,
  generateP256KeyPair,
  verifySessionJwtSignature,
} from "@turnkey/crypto";
import { TurnkeyClient, TurnkeyRequestError } from "@turnkey/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../src/api/operations.js";
import { generateKeyPair, stampBody } from "../../src/api/stamp.js";
import { mnemonicOf } from "../../src/sim/organization/export-activities.js";
import { seededPasskeyPrivateKey } from "../../src/sim/organization/org-seed.js";
import type { RunningSimulator } from "../../src/sim/server.js";
import { startSimulator } from "../../src/sim/server.js";
import { movableClock } from "../helpers/movable-clock.js";
import { makeOidcToken } from "../helpers/oidc-token.js";
import { webAuthnStampHeader } from "../helpers/webauthn-assertion.js";

/** The host's clock plus an offset the test moves, so keys can expire without waiting. */
const clock = movableClock();

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-sim-state-"));
const statePath = join(dir, "org.json");
let sim: RunningSimulator;
let org: string;
let root: TurnkeyClient;

function clientFor(pair: { publicKey: string; privateKey: string }): TurnkeyClient {
  return new TurnkeyClient(
    { baseUrl: sim.url },
    new ApiKeyStamper({ apiPublicKey: pair.publicKey, apiPrivateKey: pair.privateKey }),
  );
}

const ts = () => String(Date.now());

/** The error a call fails with, as Turnkey's published client reports it. */
async function failure(call: Promise<unknown>): Promise<TurnkeyRequestError> {
  try {
    await call;
  } catch (err) {
    if (err instanceof TurnkeyRequestError) return err;
    throw err;
  }
  throw new Error("expected the call to fail");
}

async function start() {
  sim = await startSimulator({ port: 0, seed: 7, clock, statePath });
  org = sim.config.organizationId;
  root = clientFor({ publicKey: sim.config.apiPublicKey, privateKey: sim.config.apiPrivateKey });
}

beforeAll(start);
afterAll(() => sim.close());

const state = () => sim.service.state;
const user = (name: string) => state().users.find((u) => u.userName === name) as { userId: string };

/** create_api_keys of one P-256 key for a user, by the root key. */
function addP256Key(
  userId: string,
  apiKeyName: string,
  pair: { publicKey: string },
  expirationSeconds?: string,
) {
  return root.createApiKeys({
    type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2",
    timestampMs: ts(),
    organizationId: org,
    parameters: {
      userId,
      apiKeys: [
        {
          apiKeyName,
          publicKey: pair.publicKey,
          curveType: "API_KEY_CURVE_P256",
          ...(expirationSeconds ? { expirationSeconds } : {}),
        },
      ],
    },
  });
}

describe("API keys", () => {
  it("create_api_keys: a new key stamps at once; its expiry is honoured; curves are checked", async () => {
    const me = user("oncall-root").userId;
    const pair = generateKeyPair();
    const created = await addP256Key(me, "short-lived", pair, "60");
    const a = created.activity;
    expect(a.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(a.type).toBe("ACTIVITY_TYPE_CREATE_API_KEYS_V2");
    expect(Object.keys(a.intent)).toEqual(["createApiKeysIntentV2"]);
    const ids = a.result.createApiKeysResult?.apiKeyIds ?? [];
    expect(ids).toHaveLength(1);
    const who = await clientFor(pair).getWhoami({ organizationId: org });
    expect(who.username).toBe("oncall-root");

    clock.offset += 61_000;
    const expired = await failure(clientFor(pair).getWhoami({ organizationId: org }));
    expect([expired.code, expired.message]).toEqual([
      16,
      "Turnkey error 16: expired api key (Details: [])",
    ]);
    clock.offset -= 61_000;

    const bad = await failure(
      root.createApiKeys({
        type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2",
        timestampMs: ts(),
        organizationId: org,
        parameters: {
          userId: me,
          apiKeys: [
            {
              apiKeyName: "wrong curve",
              publicKey: pair.publicKey,
              curveType: "API_KEY_CURVE_ED25519",
            },
          ],
        },
      }),
    );
    expect(bad.code).toBe(3);
    expect(bad.message).toMatch(/not a ed25519 public key/);
  });

  it("secp256k1 and ed25519 API keys stamp with their own schemes", async () => {
    const me = user("ci-deployer").userId;
    const k1 = secp256k1.utils.randomSecretKey();
    const ed = ed25519.utils.randomSecretKey();
    const keys = [
      {
        curveType: "API_KEY_CURVE_SECP256K1" as const,
        publicKey: bytesToHex(secp256k1.getPublicKey(k1, true)),
        scheme: "SIGNATURE_SCHEME_TK_API_SECP256K1",
        sign: (body: Uint8Array) => bytesToHex(secp256k1.sign(body, k1, { format: "der" })),
      },
      {
        curveType: "API_KEY_CURVE_ED25519" as const,
        publicKey: bytesToHex(ed25519.getPublicKey(ed)),
        scheme: "SIGNATURE_SCHEME_TK_API_ED25519",
        sign: (body: Uint8Array) => bytesToHex(ed25519.sign(body, ed)),
      },
    ];
    await root.createApiKeys({
      type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2",
      timestampMs: ts(),
      organizationId: org,
      parameters: {
        userId: me,
        apiKeys: keys.map((k) => ({
          apiKeyName: k.scheme,
          publicKey: k.publicKey,
          curveType: k.curveType,
        })),
      },
    });
    for (const k of keys) {
      const body = JSON.stringify({ organizationId: org });
      const stamp = (signature: string) =>
        Buffer.from(
          JSON.stringify({ publicKey: k.publicKey, scheme: k.scheme, signature }),
        ).toString("base64url");
      const send = (signature: string) =>
        fetch(`${sim.url}/public/v1/query/whoami`, {
          method: "POST",
          body,
          headers: { "Content-Type": "application/json", "X-Stamp": stamp(signature) },
        });
      const good = await send(k.sign(new TextEncoder().encode(body)));
      expect(((await good.json()) as { username: string }).username).toBe("ci-deployer");
      const bad = await send(k.sign(new TextEncoder().encode(`${body} `)));
      expect(bad.status).toBe(401);
    }
  });

  it("delete_api_keys: the deleted key is refused afterwards", async () => {
    const me = user("oncall-root").userId;
    const pair = generateKeyPair();
    const created = await addP256Key(me, "doomed", pair);
    const id = created.activity.result.createApiKeysResult?.apiKeyIds[0] as string;
    await clientFor(pair).getWhoami({ organizationId: org });
    const deleted = await root.deleteApiKeys({
      type: "ACTIVITY_TYPE_DELETE_API_KEYS",
      timestampMs: ts(),
      organizationId: org,
      parameters: { userId: me, apiKeyIds: [id] },
    });
    expect(deleted.activity.result.deleteApiKeysResult?.apiKeyIds).toEqual([id]);
    const refused = await failure(clientFor(pair).getWhoami({ organizationId: org }));
    expect(refused.code).toBe(16);
    expect(refused.message).toMatch(/: could not find public key in organization /);
    const again = await failure(
      root.deleteApiKeys({
        type: "ACTIVITY_TYPE_DELETE_API_KEYS",
        timestampMs: ts(),
        organizationId: org,
        parameters: { userId: me, apiKeyIds: [id] },
      }),
    );
    expect(again.code).toBe(5);
  });
});

describe("sessions", () => {
  const decode = (jwt: string) =>
    JSON.parse(Buffer.from(jwt.split(".")[1] as string, "base64url").toString()) as Record<
      string,
      unknown
    >;

  it("stamp_login: a session JWT signed by the simulator; the session key stamps; invalidateExisting", async () => {
    const first = generateKeyPair();
    const login = (publicKey: string, extra: Record<string, unknown> = {}) =>
      root.stampLogin({
        type: "ACTIVITY_TYPE_STAMP_LOGIN",
        timestampMs: ts(),
        organizationId: org,
        parameters: { publicKey, ...extra },
      });
    const r = await login(first.publicKey);
    const session = r.activity.result.stampLoginResult?.session as string;
    expect(await verifySessionJwtSignature(session, sim.config.signerPublicKey)).toBe(true);
    const other = bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), false));
    expect(await verifySessionJwtSignature(session, other).catch(() => false)).toBe(false);
    const claims = decode(session);
    expect(claims).toMatchObject({
      public_key: first.publicKey,
      session_type: "SESSION_TYPE_READ_WRITE",
      user_id: user("oncall-root").userId,
      organization_id: org,
    });
    const lifetime = (claims.exp as number) - Math.floor(clock.now() / 1000);
    expect(lifetime).toBeGreaterThan(895);
    expect(lifetime).toBeLessThanOrEqual(900);
    expect((await clientFor(first).getWhoami({ organizationId: org })).username).toBe(
      "oncall-root",
    );

    const second = generateKeyPair();
    await login(second.publicKey, { invalidateExisting: true });
    expect((await failure(clientFor(first).getWhoami({ organizationId: org }))).code).toBe(16);
    await clientFor(second).getWhoami({ organizationId: org });

    const unknown = await failure(login(generateKeyPair().publicKey, { sessionProfileId: "nope" }));
    expect(unknown.code).toBe(5);
    const profile = state().sessionProfiles.find((p) => p.scope.includes("READ_ONLY"));
    const readOnly = await login(generateKeyPair().publicKey, {
      sessionProfileId: profile?.sessionProfileId,
    });
    const roClaims = decode(readOnly.activity.result.stampLoginResult?.session as string);
    expect(roClaims.session_type).toBe("SESSION_TYPE_READ_ONLY");
    expect((roClaims.exp as number) - Math.floor(clock.now() / 1000)).toBeGreaterThan(3590);
  });

  it("create_read_only_session: every result field, valid for one hour", async () => {
    const r = await root.createReadOnlySession({
      type: "ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION",
      timestampMs: ts(),
      organizationId: org,
      parameters: {},
    });
    const result = operations.create_read_only_session.result.parse(
      r.activity.result.createReadOnlySessionResult,
    );
    expect(result).toMatchObject({
      organizationId: org,
      organizationName: sim.service.state.organizationName,
      userId: user("oncall-root").userId,
      username: "oncall-root",
    });
    const expiry = Number(result.sessionExpiry);
    expect(expiry - clock.now() / 1000).toBeGreaterThan(3590);
    expect(expiry - clock.now() / 1000).toBeLessThanOrEqual(3600);
    expect(await verifySessionJwtSignature(result.session, sim.config.signerPublicKey)).toBe(true);
    expect(decode(result.session).session_type).toBe("SESSION_TYPE_READ_ONLY");
  });

  it("oauth: checks the token, the credential bundle opens to a working API key", async () => {
    const target = generateP256KeyPair();
    const token = makeOidcToken({
      iss: "https://accounts.google.com",
      sub: "104729834751029384756",
      aud: "sim-google-client.apps.example",
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const r = await root.oauth({
      type: "ACTIVITY_TYPE_OAUTH",
      timestampMs: ts(),
      organizationId: org,
      parameters: { oidcToken: token, targetPublicKey: target.publicKeyUncompressed },
    });
    const result = r.activity.result.oauthResult;
    expect(result?.userId).toBe(user("oncall-root").userId);
    const privateKey = decryptCredentialBundle(
      result?.credentialBundle as string,
      target.privateKey,
    );
    const publicKey = bytesToHex(p256.getPublicKey(Buffer.from(privateKey, "hex"), true));
    const key = state().apiKeys.find((k) => k.apiKeyId === result?.apiKeyId);
    expect(key?.publicKey).toBe(publicKey);
    expect(key?.apiKeyName).toMatch(/^Oauth - \d+$/);
    expect((key?.expiresAt ?? 0) - clock.now()).toBeLessThanOrEqual(900_000);
    expect(
      (await clientFor({ publicKey, privateKey }).getWhoami({ organizationId: org })).username,
    ).toBe("oncall-root");

    const again = await root.oauth({
      type: "ACTIVITY_TYPE_OAUTH",
      timestampMs: ts(),
      organizationId: org,
      parameters: {
        oidcToken: token,
        targetPublicKey: target.publicKeyUncompressed,
        apiKeyName: "second login",
        invalidateExisting: true,
      },
    });
    const keptIds = state().apiKeys.map((k) => k.apiKeyId);
    expect(keptIds).not.toContain(result?.apiKeyId);
    expect(keptIds).toContain(again.activity.result.oauthResult?.apiKeyId);
    expect(
      (await failure(clientFor({ publicKey, privateKey }).getWhoami({ organizationId: org }))).code,
    ).toBe(16);

    const expired = await failure(
      root.oauth({
        type: "ACTIVITY_TYPE_OAUTH",
        timestampMs: ts(),
        organizationId: org,
        parameters: {
          oidcToken: "not-a-jwt",
          targetPublicKey: target.publicKeyUncompressed,
        },
      }),
    );
    expect(expired.code).toBe(3);
    expect(expired.message).toMatch(/oidcToken/);
  });

  it("accepts X-Stamp-WebAuthn from the registered passkey and refuses a tampered one", async () => {
    const body = JSON.stringify({ organizationId: org });
    const passkey = state().users[0]?.authenticators[0];
    const header = webAuthnStampHeader(
      body,
      seededPasskeyPrivateKey(7),
      passkey?.credentialId as string,
    );
    const send = (h: string, b = body) =>
      fetch(`${sim.url}/public/v1/query/whoami`, {
        method: "POST",
        body: b,
        headers: { "Content-Type": "application/json", "X-Stamp-WebAuthn": h },
      });
    const ok = await send(header);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { username: string }).username).toBe("oncall-root");
    const tampered = await send(header, JSON.stringify({ organizationId: org, x: 1 }));
    expect(tampered.status).toBe(401);
    expect(((await tampered.json()) as { code: number }).code).toBe(16);
  });
});

describe("exports", () => {
  it("export_wallet: the mnemonic in the requested language, passphrase on a second line", async () => {
    const [plain, cold] = state().wallets;
    const target = generateP256KeyPair();
    const exportOf = async (walletId: string, language?: string) => {
      const r = await root.exportWallet({
        type: "ACTIVITY_TYPE_EXPORT_WALLET",
        timestampMs: ts(),
        organizationId: org,
        parameters: {
          walletId,
          targetPublicKey: target.publicKeyUncompressed,
          ...(language ? { language: language as "MNEMONIC_LANGUAGE_JAPANESE" } : {}),
        },
      });
      expect(r.activity.result.exportWalletResult?.walletId).toBe(walletId);
      return decryptExportBundle({
        exportBundle: r.activity.result.exportWalletResult?.exportBundle as string,
        embeddedKey: target.privateKey,
        organizationId: org,
        returnMnemonic: true,
        dangerouslyOverrideSignerPublicKey: sim.config.signerPublicKey,
      });
    };
    const english = await exportOf(plain?.walletId as string);
    expect(english).toBe(mnemonicOf(plain?.entropy as string));
    expect(english.split(" ")).toHaveLength(12);
    // @turnkey/crypto turns the decrypted bytes into text one byte per character (Latin-1), so
    // a non-ASCII mnemonic comes back as its UTF-8 bytes; decode them as UTF-8 again.
    const jpBytes = await exportOf(plain?.walletId as string, "MNEMONIC_LANGUAGE_JAPANESE");
    const jp = Buffer.from(jpBytes, "latin1").toString("utf8");
    expect(jp).toBe(mnemonicOf(plain?.entropy as string, "MNEMONIC_LANGUAGE_JAPANESE"));
    expect(validateMnemonic(jp, japanese)).toBe(true);
    const withPassphrase = await exportOf(cold?.walletId as string);
    const [words, passphrase] = withPassphrase.split("\n");
    expect(words?.split(" ")).toHaveLength(24);
    expect(passphrase).toBe(cold?.passphrase);
    expect(state().wallets[0]?.exported).toBe(true);
    const unknown = await failure(exportOf("no-such-wallet"));
    expect(unknown.code).toBe(5);
  });

  it("export_secrets: one payload per secret in request order, each opens", async () => {
    const target = generateP256KeyPair();
    const secrets = [...state().secrets].reverse();
    const r = await root.exportSecrets({
      type: "ACTIVITY_TYPE_EXPORT_SECRETS",
      timestampMs: ts(),
      organizationId: org,
      parameters: {
        secrets: secrets.map((s) => ({
          secretId: s.secretId,
          targetPublicKey: target.publicKeyUncompressed,
          encryptionSuite: "TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1",
        })),
      },
    });
    const payloads = r.activity.result.exportSecretsResult?.secretPayloads ?? [];
    const opened = await Promise.all(
      payloads.map((secretPayload) =>
        decryptSecretBundle({
          secretPayload,
          embeddedPrivateKey: target.privateKey,
          organizationId: org,
          dangerouslyOverrideSignerPublicKey: sim.config.signerPublicKey,
        }),
      ),
    );
    expect(opened).toEqual(secrets.map((s) => s.value));
  });
});

describe("organization settings", () => {
  it("set_organization_feature waits for the root quorum; approval completes it, rejection rejects", async () => {
    const lead = user("sre-lead").userId;
    const leadKey = generateKeyPair();
    await addP256Key(lead, "lead laptop", leadKey);
    const asLead = clientFor(leadKey);
    const approve = (client: TurnkeyClient, fingerprint: string) =>
      client.approveActivity({
        type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
        timestampMs: ts(),
        organizationId: org,
        parameters: { fingerprint },
      });
    const submit = (value: string) =>
      root.setOrganizationFeature({
        type: "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE",
        timestampMs: ts(),
        organizationId: org,
        parameters: { name: "FEATURE_NAME_WEBAUTHN_ORIGINS", value },
      });
    const waiting = (await submit("https://app.acme.example")).activity;
    expect(waiting.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    // The submitter's stamp was their vote: they may not vote again; the other root user may.
    expect([waiting.canApprove, waiting.canReject]).toEqual([false, false]);
    const seenByLead = await asLead.getActivity({ organizationId: org, activityId: waiting.id });
    expect([seenByLead.activity.canApprove, seenByLead.activity.canReject]).toEqual([true, true]);
    expect(waiting.votes).toHaveLength(1);
    expect(waiting.result).toEqual({});
    const twice = await failure(approve(root, waiting.fingerprint));
    expect(twice.message).toMatch(/already voted/);
    const approved = await approve(asLead, waiting.fingerprint);
    expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(approved.activity.canApprove).toBe(false);
    expect(approved.activity.votes.map((v) => v.selection)).toEqual([
      "VOTE_SELECTION_APPROVED",
      "VOTE_SELECTION_APPROVED",
    ]);
    expect(approved.activity.result.setOrganizationFeatureResult?.features).toContainEqual({
      name: "FEATURE_NAME_WEBAUTHN_ORIGINS",
      value: "https://app.acme.example",
    });
    const fetched = await root.getActivity({ organizationId: org, activityId: waiting.id });
    expect(fetched.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(fetched.activity.votes.map((v) => [v.user.userId, v.user.userName])).toEqual([
      [user("oncall-root").userId, "oncall-root"],
      [lead, "sre-lead"],
    ]);
    // The whole voter: their keys (the one they voted with among them), tags and passkeys.
    const leadVote = fetched.activity.votes[1];
    expect(leadVote?.user.apiKeys.map((k) => k.credential.publicKey)).toContain(leadKey.publicKey);
    expect(fetched.activity.votes[0]?.user.authenticators).toHaveLength(1);
    // What is saved of a vote is the vote, not the voter's whole user record.
    const saved = state().activities.find((x) => x.id === waiting.id);
    expect(Object.keys(saved?.votes[0] ?? {}).sort()).toEqual([
      "createdAt",
      "id",
      "message",
      "publicKey",
      "scheme",
      "selection",
      "signature",
      "userId",
      "userName",
    ]);

    const second = (await submit("https://evil.example")).activity;
    const rejected = await asLead.rejectActivity({
      type: "ACTIVITY_TYPE_REJECT_ACTIVITY",
      timestampMs: ts(),
      organizationId: org,
      parameters: { fingerprint: second.fingerprint },
    });
    expect(rejected.activity.status).toBe("ACTIVITY_STATUS_REJECTED");
    expect(state().features).toContainEqual({
      name: "FEATURE_NAME_WEBAUTHN_ORIGINS",
      value: "https://app.acme.example",
    });

    // Only root users vote; a decided activity takes no more votes.
    const third = (await submit("https://third.example")).activity;
    const ciKey = generateKeyPair();
    await addP256Key(user("ci-deployer").userId, "ci voter", ciKey);
    expect((await failure(approve(clientFor(ciKey), third.fingerprint))).code).toBe(7);
    const late = await failure(approve(asLead, second.fingerprint));
    expect(late.message).toMatch(/is ACTIVITY_STATUS_REJECTED, not awaiting consensus/);
  });

  it("with --root-quorum 1 the submitter's approval completes set_organization_feature at once", async () => {
    const solo = await startSimulator({ port: 0, seed: 8, rootQuorumThreshold: 1 });
    try {
      const client = new TurnkeyClient(
        { baseUrl: solo.url },
        new ApiKeyStamper({
          apiPublicKey: solo.config.apiPublicKey,
          apiPrivateKey: solo.config.apiPrivateKey,
        }),
      );
      const r = await client.setOrganizationFeature({
        type: "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE",
        timestampMs: ts(),
        organizationId: solo.config.organizationId,
        parameters: { name: "FEATURE_NAME_SMS_AUTH", value: "false" },
      });
      expect(r.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      expect(r.activity.result.setOrganizationFeatureResult?.features).toContainEqual({
        name: "FEATURE_NAME_SMS_AUTH",
        value: "false",
      });
    } finally {
      await solo.close();
    }
  });

  it("smart contract interfaces: created, limited to 400kb of JSON, deleted", async () => {
    const create = (
      smartContractInterface: string,
      type = "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
    ) =>
      root.createSmartContractInterface({
        type: "ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE",
        timestampMs: ts(),
        organizationId: org,
        parameters: {
          smartContractAddress: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
          smartContractInterface,
          type: type as "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
          label: "USDC",
        },
      });
    const abi = JSON.stringify([{ type: "function", name: "transfer", inputs: [] }]);
    const id = (await create(abi)).activity.result.createSmartContractInterfaceResult
      ?.smartContractInterfaceId as string;
    expect(state().smartContractInterfaces.map((s) => s.smartContractInterfaceId)).toContain(id);
    const big = JSON.stringify(
      Array.from({ length: 9000 }, (_, i) => ({
        name: `f${i}`,
        type: "function",
        pad: "x".repeat(20),
      })),
    );
    expect(big.length).toBeGreaterThan(400 * 1024);
    const tooBig = await failure(create(big));
    expect(tooBig.code).toBe(3);
    expect(tooBig.message).toMatch(/limit is 400kb/);
    const notJson = await failure(create("function transfer()"));
    expect(notJson.message).toMatch(/JSON/);
    const deleted = await root.deleteSmartContractInterface({
      type: "ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE",
      timestampMs: ts(),
      organizationId: org,
      parameters: { smartContractInterfaceId: id },
    });
    expect(
      deleted.activity.result.deleteSmartContractInterfaceResult?.smartContractInterfaceId,
    ).toBe(id);
    expect(state().smartContractInterfaces.map((s) => s.smartContractInterfaceId)).not.toContain(
      id,
    );
  });

  it("update_oauth2_credential, update_webhook_endpoint (partial), create_user_tag, create_invitations", async () => {
    const credential = state().oauth2Credentials[0];
    const updated = await root.updateOauth2Credential({
      type: "ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL",
      timestampMs: ts(),
      organizationId: org,
      parameters: {
        oauth2CredentialId: credential?.oauth2CredentialId as string,
        provider: "OAUTH2_PROVIDER_DISCORD",
        clientId: "discord-client",
        encryptedClientSecret: "00ff",
      },
    });
    expect(updated.activity.result.updateOauth2CredentialResult?.oauth2CredentialId).toBe(
      credential?.oauth2CredentialId,
    );
    expect(state().oauth2Credentials[0]?.provider).toBe("OAUTH2_PROVIDER_DISCORD");

    const before = (await root.listWebhookEndpoints({ organizationId: org })).webhookEndpoints[0];
    const hook = await root.updateWebhookEndpoint({
      type: "ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT",
      timestampMs: ts(),
      organizationId: org,
      parameters: { endpointId: before?.endpointId as string, name: "renamed", isActive: false },
    });
    const record = hook.activity.result.updateWebhookEndpointResult?.webhookEndpoint;
    expect(record).toMatchObject({ name: "renamed", isActive: false, url: before?.url });
    const after = (await root.listWebhookEndpoints({ organizationId: org })).webhookEndpoints[0];
    expect(after).toMatchObject({ name: "renamed", isActive: false, url: before?.url });
    const badUrl = await failure(
      root.updateWebhookEndpoint({
        type: "ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT",
        timestampMs: ts(),
        organizationId: org,
        parameters: { endpointId: before?.endpointId as string, url: "ftp://x" },
      }),
    );
    expect(badUrl.code).toBe(3);

    const tag = await root.createUserTag({
      type: "ACTIVITY_TYPE_CREATE_USER_TAG",
      timestampMs: ts(),
      organizationId: org,
      parameters: { userTagName: "incident-commanders", userIds: [user("sre-lead").userId] },
    });
    const tagId = tag.activity.result.createUserTagResult?.userTagId as string;
    const tags = await root.listUserTags({ organizationId: org });
    expect(tags.userTags.find((t) => t.tagId === tagId)).toMatchObject({
      tagName: "incident-commanders",
      tagType: "TAG_TYPE_USER",
    });
    const dup = await failure(
      root.createUserTag({
        type: "ACTIVITY_TYPE_CREATE_USER_TAG",
        timestampMs: ts(),
        organizationId: org,
        parameters: { userTagName: "incident-commanders", userIds: [] },
      }),
    );
    expect(dup.code).toBe(6);

    const invited = await root.createInvitations({
      type: "ACTIVITY_TYPE_CREATE_INVITATIONS",
      timestampMs: ts(),
      organizationId: org,
      parameters: {
        invitations: [
          {
            receiverUserName: "new-sre",
            receiverUserEmail: "new-sre@acme-payments.example",
            receiverUserTags: [tagId],
            accessType: "ACCESS_TYPE_WEB",
            senderUserId: user("oncall-root").userId,
          },
        ],
      },
    });
    expect(invited.activity.result.createInvitationsResult?.invitationIds).toHaveLength(1);
    expect(state().invitations.map((i) => i.receiverUserName)).toContain("new-sre");
  });

  it("get_session_profile and list_private_keys with addresses per curve", async () => {
    const profile = state().sessionProfiles[0];
    const got = await root.getSessionProfile({
      organizationId: org,
      sessionProfileId: profile?.sessionProfileId as string,
    });
    expect(got.sessionProfile).toMatchObject({
      sessionProfileName: profile?.sessionProfileName,
      scope: profile?.scope,
    });
    expect(
      (await failure(root.getSessionProfile({ organizationId: org, sessionProfileId: "x" }))).code,
    ).toBe(5);

    const keys = (await root.getPrivateKeys({ organizationId: org })).privateKeys;
    const eth = keys.find((k) => k.curve === "CURVE_SECP256K1");
    const uncompressed = secp256k1.Point.fromHex(eth?.publicKey as string).toBytes(false);
    const expected = `0x${bytesToHex(keccak_256(uncompressed.slice(1)).slice(-20))}`;
    const ethAddress = eth?.addresses.find((a) => a.format === "ADDRESS_FORMAT_ETHEREUM")?.address;
    expect(ethAddress?.toLowerCase()).toBe(expected);
    const formats = (curve: string) =>
      keys
        .find((k) => k.curve === curve)
        ?.addresses.map((a) => a.format)
        .sort();
    expect(formats("CURVE_ED25519")).toEqual([
      "ADDRESS_FORMAT_COMPRESSED",
      "ADDRESS_FORMAT_SOLANA",
    ]);
    expect(formats("CURVE_P256")).toEqual([
      "ADDRESS_FORMAT_COMPRESSED",
      "ADDRESS_FORMAT_UNCOMPRESSED",
    ]);
  });
});

describe("activities", () => {
  it("an identical body is the same activity; a new timestampMs is a new one; fingerprint and app proofs", async () => {
    const body = (timestampMs: string) =>
      JSON.stringify({
        type: "ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION",
        timestampMs,
        organizationId: org,
        parameters: {},
        generateAppProofs: true,
      });
    const submit = async (text: string) => {
      const res = await fetch(`${sim.url}/public/v1/submit/create_read_only_session`, {
        method: "POST",
        body: text,
        headers: {
          "Content-Type": "application/json",
          "X-Stamp": stampBody(text, {
            publicKey: sim.config.apiPublicKey,
            privateKey: sim.config.apiPrivateKey,
          }),
        },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { activity: Record<string, unknown> }).activity;
    };
    const t = ts();
    const a = await submit(body(t));
    const again = await submit(body(t));
    const later = await submit(body(String(Number(t) + 1)));
    expect(again.id).toBe(a.id);
    expect(later.id).not.toBe(a.id);
    expect(a.fingerprint).toBe(computeActivityFingerprint(body(t)));
    const proofs = a.appProofs as { scheme: string; proofPayload: string }[];
    expect(proofs).toHaveLength(1);
    expect(JSON.parse(proofs[0]?.proofPayload as string)).toMatchObject({ activityId: a.id });
    for (const key of [
      "id",
      "organizationId",
      "status",
      "type",
      "intent",
      "result",
      "votes",
      "fingerprint",
      "canApprove",
      "canReject",
      "createdAt",
      "updatedAt",
    ]) {
      expect(a).toHaveProperty(key);
    }
    const listed = await root.getActivities({
      organizationId: org,
      paginationOptions: { limit: "100" },
    });
    expect(listed.activities.map((x) => x.id)).toContain(a.id);
  });
});

describe("--state", () => {
  it("survives a restart: keys, tags and activities are still there; the file is owner-only", async () => {
    const pair = generateKeyPair();
    await addP256Key(user("ci-deployer").userId, "ci", pair);
    const activities = state().activities.length;
    expect(statSync(statePath).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    await sim.close();
    // A crash mid-write leaves a temporary file beside the state; it is ignored.
    writeFileSync(join(dir, ".org.json.99999.tmp"), '{"version":1,"trunc');
    await start();
    expect((await clientFor(pair).getWhoami({ organizationId: org })).username).toBe("ci-deployer");
    expect(state().activities.length).toBe(activities);
    expect(
      (await root.listUserTags({ organizationId: org })).userTags.map((t) => t.tagName),
    ).toContain("incident-commanders");
    expect(JSON.parse(readFileSync(statePath, "utf8")).seed).toBe(7);
  });

  it("refuses a state file that is not one, naming it", async () => {
    const broken = join(dir, "broken.json");
    writeFileSync(broken, "{}", { mode: 0o600 });
    await expect(startSimulator({ port: 0, statePath: broken })).rejects.toThrow(
      /is not a tvcwatch sim state file.*version/,
    );
    await expect(startSimulator({ port: 0, seed: 8, statePath })).rejects.toThrow(
      /holds an organization with --seed 7; drop --seed 8/,
    );
  });
});

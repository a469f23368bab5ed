/**
 * The organization's generated activity queue (what the dashboard's Activities pane shows besides
 * what was submitted to the simulator): real activity types over time, each with an intent and a
 * result of its own type made from the organization's records (its wallets and their addresses,
 * its users, keys, tags and features), moving through CREATED, PENDING and then COMPLETED or
 * FAILED. What they sign is real: encoded Solana and Ethereum transactions from its wallets and
 * keys (./signable-transactions.ts), EIP-712 typed data, a sign-in message, a digest. Some wait in CONSENSUS_NEEDED, submitted and approved by sre-lead (a root user, whose
 * stamp over the request is the vote), until approve_activity or reject_activity by fingerprint.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { hashTypedData, parseTransaction, serializeTransaction } from "viem";
import { GrpcCode } from "../../api/grpc-codes.js";
import { decodeStamp, STAMP_SCHEME, stampBody } from "../../api/stamp.js";
import { addressesFor } from "../crypto/addresses.js";
import type { SessionClaims } from "../crypto/session-jwt.js";
import { notFound } from "../http/sim-error.js";
import type { ActivitySnapshot } from "../organization/activity-envelope.js";
import type { OrgState, VoteRecord } from "../organization/org-state.js";
import { checkVoter } from "../organization/quorum.js";
import type { Random } from "../random.js";
import type { Scenario } from "../scenario.js";
import { ethereumTransaction, solanaTransaction } from "./signable-transactions.js";

type Outcome = "COMPLETED" | "FAILED" | "CONSENSUS";

interface Made {
  intent: Record<string, unknown>;
  result: Record<string, unknown>;
}

interface Maker {
  operation: string;
  type: string;
  intentKey: string;
  resultKey: string;
  /** A policy can hold it for the root quorum's consensus. */
  consensus: boolean;
  make(g: Generation): Made;
}

/** What one generated activity draws from. */
interface Generation {
  rng: Random;
  state: OrgState;
  scenario: Scenario;
  /** The organization's Solana addresses (its wallets' accounts) that Solana transactions are from. */
  solanaSigners: readonly string[];
  at: number;
  signSession(claims: SessionClaims): string;
}

const userNamed = (state: OrgState, name: string) => state.users.find((u) => u.userName === name);

/** An address of one of the organization's private keys, in a format. */
function privateKeyAddress(state: OrgState, curve: string, format: string): string | undefined {
  const key = state.privateKeys.find((k) => k.curve === curve);
  if (!key) return undefined;
  return addressesFor(key.curve, hexToBytes(key.publicKey)).find((a) => a.format === format)
    ?.address;
}

/** A recoverable secp256k1 signature of a 32-byte digest by the treasury key (65 zero bytes without one). */
function treasurySignature(state: OrgState, digest: Uint8Array): Uint8Array {
  const key = state.privateKeys.find((k) => k.curve === "CURVE_SECP256K1");
  return key
    ? secp256k1.sign(digest, hexToBytes(key.privateKey), { prehash: false, format: "recovered" })
    : new Uint8Array(65);
}

/** r, s and v of a recovered signature, as sign_raw_payload's result has them. */
function rsv(sig: Uint8Array) {
  return {
    r: bytesToHex(sig.slice(1, 33)),
    s: bytesToHex(sig.slice(33, 65)),
    v: (sig[0] ?? 0).toString(16).padStart(2, "0"),
  };
}

/** An EIP-2612 permit of the organization's USDC on Sepolia to a drawn spender. */
function permitTypedData(rng: Random, owner: string) {
  return {
    types: {
      EIP712Domain: [
        { name: "name", type: "string" },
        { name: "version", type: "string" },
        { name: "chainId", type: "uint256" },
        { name: "verifyingContract", type: "address" },
      ],
      Permit: [
        { name: "owner", type: "address" },
        { name: "spender", type: "address" },
        { name: "value", type: "uint256" },
        { name: "nonce", type: "uint256" },
        { name: "deadline", type: "uint256" },
      ],
    },
    primaryType: "Permit" as const,
    domain: {
      name: "USDC",
      version: "2",
      chainId: 11155111,
      verifyingContract: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238" as const,
    },
    message: {
      owner,
      spender: `0x${rng.hex(20)}`,
      value: String(rng.int(1, 5000) * 1_000_000),
      nonce: String(rng.int(0, 20)),
      deadline: String(1_900_000_000 + rng.int(0, 9_999_999)),
    },
  };
}

/** An EIP-4361 sign-in message for the organization's treasury app. */
function signInMessage(rng: Random, address: string, at: number): string {
  return [
    "app.acme-payments.example wants you to sign in with your Ethereum account:",
    address,
    "",
    "Sign in to the Acme Payments treasury app.",
    "",
    "URI: https://app.acme-payments.example/login",
    "Version: 1",
    "Chain ID: 11155111",
    `Nonce: ${rng.hex(8)}`,
    `Issued At: ${new Date(at).toISOString()}`,
  ].join("\n");
}

const MAKERS: readonly Maker[] = [
  {
    operation: "sign_transaction",
    type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
    intentKey: "signTransactionIntentV2",
    resultKey: "signTransactionResult",
    consensus: true,
    make: ({ rng, state, solanaSigners }) => {
      const from = rng.pick(solanaSigners);
      const unsigned = solanaTransaction(rng, from, state.smartContractInterfaces).hex;
      return {
        intent: { signWith: from, unsignedTransaction: unsigned, type: "TRANSACTION_TYPE_SOLANA" },
        // One signer: its signature slot (after the count) filled.
        result: {
          signedTransaction: `${unsigned.slice(0, 2)}${rng.hex(64)}${unsigned.slice(130)}`,
        },
      };
    },
  },
  {
    operation: "sign_transaction",
    type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
    intentKey: "signTransactionIntentV2",
    resultKey: "signTransactionResult",
    consensus: true,
    make: ({ rng, state }) => {
      const unsigned = ethereumTransaction(rng, state.smartContractInterfaces);
      const tx = parseTransaction(`0x${unsigned}`);
      const sig = treasurySignature(state, keccak_256(hexToBytes(unsigned)));
      const signed = serializeTransaction(tx, {
        r: `0x${bytesToHex(sig.slice(1, 33))}`,
        s: `0x${bytesToHex(sig.slice(33, 65))}`,
        yParity: sig[0] ?? 0,
      });
      return {
        intent: {
          signWith: privateKeyAddress(state, "CURVE_SECP256K1", "ADDRESS_FORMAT_ETHEREUM") ?? "",
          unsignedTransaction: unsigned,
          type: "TRANSACTION_TYPE_ETHEREUM",
        },
        result: { signedTransaction: signed.slice(2) },
      };
    },
  },
  {
    operation: "sol_send_transaction",
    type: "ACTIVITY_TYPE_SOL_SEND_TRANSACTION",
    intentKey: "solSendTransactionIntent",
    resultKey: "solSendTransactionResult",
    consensus: true,
    make: ({ rng, scenario, state, solanaSigners }) => {
      const from = rng.pick(solanaSigners);
      return {
        intent: {
          // Base64, as the swagger has sol_send_transaction's unsignedTransaction.
          unsignedTransaction: solanaTransaction(rng, from, state.smartContractInterfaces).base64,
          signWith: from,
          sponsor: rng.chance(0.5),
          caip2: scenario.caip2,
        },
        result: { sendTransactionStatusId: rng.uuid() },
      };
    },
  },
  {
    operation: "sign_raw_payload",
    type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
    intentKey: "signRawPayloadIntentV2",
    resultKey: "signRawPayloadResult",
    consensus: true,
    make: ({ rng, state, at }) => {
      const signWith = privateKeyAddress(state, "CURVE_SECP256K1", "ADDRESS_FORMAT_ETHEREUM") ?? "";
      const kind = rng.pick(["digest", "permit", "sign-in"] as const);
      // Real signatures by the treasury key, of what each encoding and hash function sign.
      if (kind === "permit") {
        const data = permitTypedData(rng, signWith);
        const digest = hexToBytes(hashTypedData(data as never).slice(2));
        return {
          intent: {
            signWith,
            payload: JSON.stringify(data),
            encoding: "PAYLOAD_ENCODING_EIP712",
            hashFunction: "HASH_FUNCTION_NO_OP",
          },
          result: rsv(treasurySignature(state, digest)),
        };
      }
      if (kind === "sign-in") {
        const text = signInMessage(rng, signWith, at);
        return {
          intent: {
            signWith,
            payload: text,
            encoding: "PAYLOAD_ENCODING_TEXT_UTF8",
            hashFunction: "HASH_FUNCTION_KECCAK256",
          },
          result: rsv(treasurySignature(state, keccak_256(new TextEncoder().encode(text)))),
        };
      }
      const payload = rng.hex(32);
      return {
        intent: {
          signWith,
          payload,
          encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
          hashFunction: "HASH_FUNCTION_NO_OP",
        },
        result: rsv(treasurySignature(state, hexToBytes(payload))),
      };
    },
  },
  {
    operation: "create_wallet_accounts",
    type: "ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS",
    intentKey: "createWalletAccountsIntent",
    resultKey: "createWalletAccountsResult",
    consensus: false,
    make: ({ rng, state }) => ({
      intent: {
        walletId: rng.pick(state.wallets).walletId,
        accounts: [
          {
            curve: "CURVE_ED25519",
            pathFormat: "PATH_FORMAT_BIP32",
            path: `m/44'/501'/${rng.int(2, 40)}'/0'`,
            addressFormat: "ADDRESS_FORMAT_SOLANA",
          },
        ],
      },
      result: { addresses: [rng.base58(44)] },
    }),
  },
  {
    operation: "stamp_login",
    type: "ACTIVITY_TYPE_STAMP_LOGIN",
    intentKey: "stampLoginIntent",
    resultKey: "stampLoginResult",
    consensus: false,
    make: ({ rng, state, at, signSession }) => {
      const publicKey = `0${rng.pick(["2", "3"])}${rng.hex(32)}`;
      const user = userNamed(state, "oncall-root") ?? state.users[0];
      return {
        intent: { publicKey, expirationSeconds: "900" },
        result: {
          session: signSession({
            exp: Math.floor(at / 1000) + 900,
            public_key: publicKey,
            session_type: "SESSION_TYPE_READ_WRITE",
            user_id: user?.userId ?? "",
            organization_id: state.organizationId,
          }),
        },
      };
    },
  },
  {
    operation: "create_api_keys",
    type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2",
    intentKey: "createApiKeysIntentV2",
    resultKey: "createApiKeysResult",
    consensus: true,
    make: ({ rng, state, at }) => ({
      intent: {
        apiKeys: [
          {
            apiKeyName: `ci-deployer ${new Date(at).toISOString().slice(0, 10)}`,
            publicKey: `0${rng.pick(["2", "3"])}${rng.hex(32)}`,
            curveType: "API_KEY_CURVE_P256",
            expirationSeconds: "7776000",
          },
        ],
        userId: userNamed(state, "ci-deployer")?.userId ?? "",
      },
      result: { apiKeyIds: [rng.uuid()] },
    }),
  },
  {
    operation: "set_organization_feature",
    type: "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE",
    intentKey: "setOrganizationFeatureIntent",
    resultKey: "setOrganizationFeatureResult",
    consensus: true,
    make: ({ rng, state }) => {
      const [name, value] = rng.pick([
        ["FEATURE_NAME_WEBAUTHN_ORIGINS", "https://app.acme-payments.example"],
        ["FEATURE_NAME_OTP_EMAIL_AUTH", "true"],
        ["FEATURE_NAME_SMS_AUTH", "false"],
      ] as const);
      const others = state.features.filter((f) => f.name !== name);
      return {
        intent: { name, value },
        result: { features: [...others, { name, value }].map((f) => ({ ...f })) },
      };
    },
  },
  {
    operation: "export_wallet",
    type: "ACTIVITY_TYPE_EXPORT_WALLET",
    intentKey: "exportWalletIntent",
    resultKey: "exportWalletResult",
    consensus: true,
    make: ({ rng, state }) => {
      const wallet = rng.pick(state.wallets);
      const data = JSON.stringify({
        encappedPublic: `04${rng.hex(64)}`,
        ciphertext: rng.hex(96),
        organizationId: state.organizationId,
      });
      return {
        intent: {
          walletId: wallet.walletId,
          targetPublicKey: `04${rng.hex(64)}`,
          language: "MNEMONIC_LANGUAGE_ENGLISH",
        },
        result: {
          walletId: wallet.walletId,
          exportBundle: JSON.stringify({
            version: "v1.0.0",
            data: bytesToHex(new TextEncoder().encode(data)),
            dataSignature: `3045${rng.hex(68)}`,
            enclaveQuorumPublic: `04${rng.hex(64)}`,
          }),
        },
      };
    },
  },
  {
    operation: "create_invitations",
    type: "ACTIVITY_TYPE_CREATE_INVITATIONS",
    intentKey: "createInvitationsIntent",
    resultKey: "createInvitationsResult",
    consensus: false,
    make: ({ rng, state }) => {
      const name = rng.pick(["dana", "eli", "farah", "gus", "hana", "ivo"]);
      const onCall = state.tags.find((t) => t.tagName === "on-call");
      return {
        intent: {
          invitations: [
            {
              receiverUserName: name,
              receiverUserEmail: `${name}@acme-payments.example`,
              receiverUserTags: onCall ? [onCall.tagId] : [],
              accessType: rng.pick(["ACCESS_TYPE_WEB", "ACCESS_TYPE_ALL"]),
              senderUserId: userNamed(state, "oncall-root")?.userId ?? "",
            },
          ],
        },
        result: { invitationIds: [rng.uuid()] },
      };
    },
  },
];

const FAILURE = {
  code: GrpcCode.PERMISSION_DENIED,
  message: "policy evaluation denied the activity: no policy allows this signer",
};

export interface QueuedActivity {
  id: string;
  type: string;
  intentKey: string;
  resultKey: string;
  intent: Record<string, unknown>;
  result: Record<string, unknown>;
  fingerprint: string;
  createdAt: number;
  pendingAt: number;
  doneAt: number;
  outcome: Outcome;
  votes: VoteRecord[];
  decided?: { status: "ACTIVITY_STATUS_COMPLETED" | "ACTIVITY_STATUS_REJECTED"; at: number };
}

/** The longest an activity takes from its creation to its outcome (doneAt). */
const MAX_RUN_MS = 8000;

/**
 * A moment of a generated activity: its creation, or its outcome at doneAt (COMPLETED, FAILED,
 * or held for the root quorum's consensus with the approvals it had then).
 */
export interface QueueMoment {
  at: number;
  id: string;
  type: string;
  kind: "created" | "completed" | "failed" | "consensus";
  /** Approvals it had when the moment came, and how many the root quorum needs. */
  approvals: number;
  threshold: number;
}

/** A vote on a generated activity: the submitter's (when it was created) or one cast later. */
export interface QueueVote {
  /** When it was cast (its createdAt). */
  at: number;
  activityId: string;
  type: string;
  vote: VoteRecord;
}

export interface ActivityQueueOptions {
  perMinute: number;
  startMs: number;
  /** The Solana addresses its Solana transactions are from (the organization's wallets'). */
  solanaSigners: readonly string[];
  signSession(claims: SessionClaims): string;
}

export class ActivityQueue {
  private readonly items: QueuedActivity[] = [];
  /** Every vote on them, as cast (bounded as the items are). */
  private readonly votes: QueueVote[] = [];
  private nextAt: number;

  constructor(
    private readonly rng: Random,
    private readonly scenario: Scenario,
    private readonly state: OrgState,
    private readonly options: ActivityQueueOptions,
  ) {
    this.nextAt = options.startMs - 20 * 60_000;
  }

  private make(at: number): void {
    const maker = this.rng.pick(MAKERS);
    const roll = this.rng.next();
    const outcome: Outcome =
      roll < 0.12 ? "FAILED" : roll < 0.27 && maker.consensus ? "CONSENSUS" : "COMPLETED";
    const { intent, result } = maker.make({
      rng: this.rng,
      state: this.state,
      scenario: this.scenario,
      solanaSigners: this.options.solanaSigners,
      at,
      signSession: this.options.signSession,
    });
    // The request as it was submitted: its hash is the fingerprint, its stamp the submitter's vote.
    const body = JSON.stringify({
      type: maker.type,
      timestampMs: String(Math.floor(at)),
      organizationId: this.state.organizationId,
      parameters: intent,
    });
    const id = this.rng.uuid();
    const createdAt = Math.floor(at);
    const votes = outcome === "CONSENSUS" ? this.submitterVote(body, createdAt) : [];
    for (const vote of votes)
      this.votes.push({ at: createdAt, activityId: id, type: maker.type, vote });
    this.items.push({
      id,
      type: maker.type,
      intentKey: maker.intentKey,
      resultKey: maker.resultKey,
      intent,
      result,
      fingerprint: `sha256:${bytesToHex(sha256(new TextEncoder().encode(body)))}`,
      createdAt,
      pendingAt: createdAt + this.rng.int(200, 1500),
      doneAt: createdAt + this.rng.int(2000, MAX_RUN_MS),
      outcome,
      votes,
    });
  }

  /** sre-lead's approval: their stamp over the request they submitted. */
  private submitterVote(body: string, at: number): VoteRecord[] {
    const key = this.scenario.secondRootKey;
    const voter = userNamed(this.state, key.userName);
    if (!voter) return [];
    return [
      {
        id: this.rng.uuid(),
        userId: voter.userId,
        userName: voter.userName,
        selection: "VOTE_SELECTION_APPROVED",
        message: body,
        publicKey: key.publicKey,
        signature: decodeStamp(stampBody(body, key)).signature,
        scheme: STAMP_SCHEME,
        createdAt: at,
      },
    ];
  }

  private advance(now: number): void {
    while (this.nextAt <= now) {
      this.make(this.nextAt);
      this.nextAt += this.rng.exponential(60_000 / this.options.perMinute);
    }
    // Keep the queue bounded: the newest 2,000 activities.
    if (this.items.length > 2500) this.items.splice(0, this.items.length - 2000);
    if (this.votes.length > 2500) this.votes.splice(0, this.votes.length - 2000);
  }

  /**
   * The votes on generated activities cast in [from, to), in time order: what the signer logs
   * (./service-lines.ts). The submitters' are drawn with their activities (the same whenever
   * asked); a vote cast later is there from when it was cast.
   */
  votesDuring(from: number, to: number): QueueVote[] {
    this.advance(to);
    return this.votes.filter((v) => v.at >= from && v.at < to).sort((a, b) => a.at - b.at);
  }

  /**
   * The moments of generated activities in [from, to), in time order: what the signer and policy
   * services log (./service-lines.ts). The same for a seed whenever asked: generating ahead of
   * the server's clock changes no draw, and a vote cast later does not count as an approval
   * the activity had at its outcome.
   */
  momentsDuring(from: number, to: number): QueueMoment[] {
    this.advance(to);
    const out: QueueMoment[] = [];
    const threshold = this.state.rootQuorum.threshold;
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.items[mid] as QueuedActivity).createdAt < from - MAX_RUN_MS) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.items.length; i++) {
      const a = this.items[i] as QueuedActivity;
      if (a.createdAt >= to) break;
      const moment = (at: number, kind: QueueMoment["kind"]) => ({
        at,
        id: a.id,
        type: a.type,
        kind,
        approvals: a.votes.filter((v) => v.createdAt <= at).length,
        threshold,
      });
      if (a.createdAt >= from) out.push(moment(a.createdAt, "created"));
      if (a.doneAt >= from && a.doneAt < to) {
        const kind =
          a.outcome === "FAILED" ? "failed" : a.outcome === "CONSENSUS" ? "consensus" : "completed";
        out.push(moment(a.doneAt, kind));
      }
    }
    return out.sort((x, y) => x.at - y.at);
  }

  private statusAt(a: QueuedActivity, now: number): string {
    if (a.decided && a.decided.at <= now) return a.decided.status;
    if (now < a.pendingAt) return "ACTIVITY_STATUS_CREATED";
    if (now < a.doneAt) return "ACTIVITY_STATUS_PENDING";
    if (a.outcome === "FAILED") return "ACTIVITY_STATUS_FAILED";
    if (a.outcome === "CONSENSUS") return "ACTIVITY_STATUS_CONSENSUS_NEEDED";
    return "ACTIVITY_STATUS_COMPLETED";
  }

  /** The activity as it stands at `now`. */
  private snapshot(a: QueuedActivity, now: number): ActivitySnapshot {
    const status = this.statusAt(a, now);
    const updatedAt =
      a.decided && a.decided.at <= now
        ? a.decided.at
        : Math.min(
            now,
            status === "ACTIVITY_STATUS_CREATED"
              ? a.createdAt
              : status === "ACTIVITY_STATUS_PENDING"
                ? a.pendingAt
                : a.doneAt,
          );
    return {
      id: a.id,
      type: a.type,
      status,
      intentKey: a.intentKey,
      resultKey: a.resultKey,
      intent: a.intent,
      ...(status === "ACTIVITY_STATUS_COMPLETED" ? { result: a.result } : {}),
      ...(status === "ACTIVITY_STATUS_FAILED" ? { failure: FAILURE } : {}),
      votes: a.votes,
      fingerprint: a.fingerprint,
      createdAt: a.createdAt,
      updatedAt,
    };
  }

  /** Activities created by `now`, newest first, filtered by status and type. */
  list(now: number, statuses?: readonly string[], types?: readonly string[]): ActivitySnapshot[] {
    this.advance(now);
    return this.items
      .filter((a) => a.createdAt <= now && (!types?.length || types.includes(a.type)))
      .map((a) => this.snapshot(a, now))
      .filter((a) => !statuses?.length || statuses.includes(a.status))
      .sort((x, y) => y.createdAt - x.createdAt);
  }

  get(now: number, id: string): ActivitySnapshot {
    this.advance(now);
    const found = this.items.find((a) => a.id === id && a.createdAt <= now);
    if (!found) throw notFound(`activity ${id} not found`);
    return this.snapshot(found, now);
  }

  /**
   * A root user's vote on an activity awaiting consensus: an approval completes it (the policy's
   * consensus is reached), a rejection rejects it.
   */
  vote(now: number, fingerprint: string, vote: VoteRecord): ActivitySnapshot {
    this.advance(now);
    const found = this.items.find((a) => a.fingerprint === fingerprint && a.createdAt <= now);
    if (!found) throw notFound(`no activity has fingerprint ${fingerprint}`);
    const voter = this.state.users.find((u) => u.userId === vote.userId);
    if (voter) checkVoter(this.snapshot(found, now), this.state, voter);
    found.votes = [...found.votes, vote];
    this.votes.push({ at: vote.createdAt, activityId: found.id, type: found.type, vote });
    found.decided = {
      status:
        vote.selection === "VOTE_SELECTION_APPROVED"
          ? "ACTIVITY_STATUS_COMPLETED"
          : "ACTIVITY_STATUS_REJECTED",
      at: now,
    };
    return this.snapshot(found, now);
  }
}

/**
 * Simulated activity queue: activities arrive over time and move through CREATED, PENDING and
 * then COMPLETED or FAILED; some wait in CONSENSUS_NEEDED until approve_activity or
 * reject_activity by fingerprint moves them on.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { failedPrecondition, notFound } from "../http/sim-error.js";
import { protoTimestamp } from "../proto-timestamp.js";
import type { Random } from "../random.js";

type Outcome = "COMPLETED" | "FAILED" | "CONSENSUS";

const TYPES = [
  {
    type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
    key: "signTransaction",
    intentKey: "signTransactionIntentV2",
  },
  { type: "ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS", key: "createWalletAccounts" },
  { type: "ACTIVITY_TYPE_STAMP_LOGIN", key: "stampLogin" },
  {
    type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2",
    key: "createApiKeys",
    intentKey: "createApiKeysIntentV2",
  },
  { type: "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE", key: "setOrganizationFeature" },
  { type: "ACTIVITY_TYPE_EXPORT_WALLET", key: "exportWallet" },
  { type: "ACTIVITY_TYPE_CREATE_INVITATIONS", key: "createInvitations" },
] as const;

interface Vote {
  id: string;
  userId: string;
  user: { userId: string; userName: string };
  activityId: string;
  selection: "VOTE_SELECTION_APPROVED" | "VOTE_SELECTION_REJECTED";
  message: string;
  publicKey: string;
  signature: string;
  scheme: string;
  createdAt: { seconds: string; nanos: string };
}

export interface SimActivity {
  id: string;
  type: string;
  resultKey: string;
  intentKey: string;
  createdAt: number;
  pendingAt: number;
  doneAt: number;
  outcome: Outcome;
  fingerprint: string;
  intent: Record<string, unknown>;
  votes: Vote[];
  decided?: { status: "ACTIVITY_STATUS_COMPLETED" | "ACTIVITY_STATUS_REJECTED"; at: number };
}

export class Activities {
  private readonly items: SimActivity[] = [];
  private nextAt: number;

  constructor(
    private readonly rng: Random,
    private readonly organizationId: string,
    private readonly userId: string,
    private readonly perMinute: number,
    startMs: number,
  ) {
    this.nextAt = startMs - 20 * 60_000;
  }

  private make(at: number): void {
    const kind = this.rng.pick(TYPES);
    const roll = this.rng.next();
    const outcome: Outcome = roll < 0.12 ? "FAILED" : roll < 0.27 ? "CONSENSUS" : "COMPLETED";
    const id = this.rng.uuid();
    const intent =
      kind.key === "signTransaction"
        ? {
            signWith: this.rng.base58(44),
            unsignedTransaction: this.rng.hex(48),
            type: "TRANSACTION_TYPE_SOLANA",
          }
        : kind.key === "setOrganizationFeature"
          ? { name: "FEATURE_NAME_WEBHOOK", value: "true" }
          : { note: "simulated intent" };
    const body = JSON.stringify({ type: kind.type, id, intent });
    const voter = this.rng.uuid();
    this.items.push({
      id,
      type: kind.type,
      resultKey: `${kind.key}Result`,
      intentKey: "intentKey" in kind ? kind.intentKey : `${kind.key}Intent`,
      createdAt: at,
      pendingAt: at + this.rng.int(200, 1500),
      doneAt: at + this.rng.int(2000, 8000),
      outcome,
      fingerprint: `sha256:${bytesToHex(sha256(new TextEncoder().encode(body)))}`,
      intent,
      votes:
        outcome === "CONSENSUS"
          ? [
              {
                id: this.rng.uuid(),
                userId: voter,
                user: { userId: voter, userName: "root-2" },
                activityId: id,
                selection: "VOTE_SELECTION_APPROVED",
                message: body,
                publicKey: `02${this.rng.hex(32)}`,
                signature: `3045${this.rng.hex(68)}`,
                scheme: "SIGNATURE_SCHEME_TK_API_P256",
                createdAt: protoTimestamp(at + 500),
              },
            ]
          : [],
    });
  }

  private advance(now: number): void {
    while (this.nextAt <= now) {
      this.make(this.nextAt);
      this.nextAt += this.rng.exponential(60_000 / this.perMinute);
    }
    // Keep the queue bounded: the newest 2,000 activities.
    if (this.items.length > 2500) this.items.splice(0, this.items.length - 2000);
  }

  statusAt(a: SimActivity, now: number): string {
    if (a.decided && a.decided.at <= now) return a.decided.status;
    if (now < a.pendingAt) return "ACTIVITY_STATUS_CREATED";
    if (now < a.doneAt) return "ACTIVITY_STATUS_PENDING";
    if (a.outcome === "FAILED") return "ACTIVITY_STATUS_FAILED";
    if (a.outcome === "CONSENSUS") return "ACTIVITY_STATUS_CONSENSUS_NEEDED";
    return "ACTIVITY_STATUS_COMPLETED";
  }

  toJson(a: SimActivity, now: number) {
    const status = this.statusAt(a, now);
    const open = status === "ACTIVITY_STATUS_CONSENSUS_NEEDED";
    const updated =
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
      organizationId: this.organizationId,
      status,
      type: a.type,
      intent: { [a.intentKey]: a.intent },
      result: status === "ACTIVITY_STATUS_COMPLETED" ? { [a.resultKey]: { activityId: a.id } } : {},
      votes: a.votes,
      fingerprint: a.fingerprint,
      canApprove: open,
      canReject: open,
      createdAt: protoTimestamp(a.createdAt),
      updatedAt: protoTimestamp(updated),
      ...(status === "ACTIVITY_STATUS_FAILED"
        ? {
            failure: {
              code: 9,
              message: "policy evaluation denied the activity: no policy allows this signer",
              details: [],
            },
          }
        : {}),
    };
  }

  /** Activities created by `now`, newest first, filtered by status and type. */
  list(now: number, statuses?: string[], types?: string[]): SimActivity[] {
    this.advance(now);
    return this.items
      .filter((a) => a.createdAt <= now)
      .filter((a) => !statuses || statuses.length === 0 || statuses.includes(this.statusAt(a, now)))
      .filter((a) => !types || types.length === 0 || types.includes(a.type))
      .sort((x, y) => y.createdAt - x.createdAt);
  }

  get(now: number, id: string): SimActivity {
    this.advance(now);
    const found = this.items.find((a) => a.id === id && a.createdAt <= now);
    if (!found) throw notFound(`activity ${id} not found`);
    return found;
  }

  /** approve_activity / reject_activity: moves a CONSENSUS_NEEDED activity on. */
  decide(now: number, fingerprint: string, approve: boolean): SimActivity {
    this.advance(now);
    const found = this.items.find((a) => a.fingerprint === fingerprint && a.createdAt <= now);
    if (!found) throw notFound(`no activity has fingerprint ${fingerprint}`);
    const status = this.statusAt(found, now);
    if (status !== "ACTIVITY_STATUS_CONSENSUS_NEEDED") {
      throw failedPrecondition(`activity ${found.id} is ${status}, not awaiting consensus`);
    }
    found.decided = {
      status: approve ? "ACTIVITY_STATUS_COMPLETED" : "ACTIVITY_STATUS_REJECTED",
      at: now,
    };
    found.votes.push({
      id: this.rng.uuid(),
      userId: this.userId,
      user: { userId: this.userId, userName: "oncall-root" },
      activityId: found.id,
      selection: approve ? "VOTE_SELECTION_APPROVED" : "VOTE_SELECTION_REJECTED",
      message: fingerprint,
      publicKey: "",
      signature: "",
      scheme: "SIGNATURE_SCHEME_TK_API_P256",
      createdAt: protoTimestamp(now),
    });
    return found;
  }
}

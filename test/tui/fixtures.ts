import type { Activity, EmailEvent, SolTransaction, Vote } from "../../src/api/schemas.js";
import type { Feeds } from "../../src/feeds/feeds.js";
import { Poller } from "../../src/feeds/poller.js";
import type { LogLine } from "../../src/logs/model/log-line.js";
import { LogStore } from "../../src/logs/model/log-store.js";
import { LogFollower } from "../../src/tail/follower.js";
import { responseMeta } from "../helpers/response-meta.js";

export const NOW = 1_795_000_000_000;

/** A vote's user record as the API sends it, with only what the dashboard reads filled in. */
export function voter(userId: string, userName: string): NonNullable<Vote["user"]> {
  return {
    userId,
    userName,
    authenticators: [],
    apiKeys: [],
    userTags: [],
    oauthProviders: [],
    createdAt: { seconds: "1795000000", nanos: "0" },
    updatedAt: { seconds: "1795000000", nanos: "0" },
    mfaPolicies: [],
  };
}

export function line(i: number, replica: number, content: string, late = false): LogLine {
  const ms = NOW - 60_000 + i * 100;
  return {
    kind: "line",
    replicaLabel: `replica ${replica}/3`,
    seconds: String(Math.floor(ms / 1000)),
    nanos: (ms % 1000) * 1e6,
    sortKey: ms,
    content,
    late,
  };
}

export function activity(id: string, status: string, ageMs: number): Activity {
  const created = NOW - ageMs;
  return {
    id,
    organizationId: "org",
    status: `ACTIVITY_STATUS_${status}`,
    type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
    intent: { signTransactionIntentV2: { signWith: "abc" } },
    result: {},
    votes:
      status === "CONSENSUS_NEEDED"
        ? [{ id: "v", userId: "root-2", activityId: id, selection: "VOTE_SELECTION_APPROVED" }]
        : [],
    fingerprint: `sha256:${id}`,
    canApprove: status === "CONSENSUS_NEEDED",
    canReject: status === "CONSENSUS_NEEDED",
    createdAt: { seconds: String(Math.floor(created / 1000)), nanos: "0" },
    updatedAt: String(created),
    ...(status === "FAILED" ? { failure: { code: 9, message: "policy denied" } } : {}),
  };
}

export const EMAILS: EmailEvent[] = [
  {
    id: "e1",
    organizationId: "o",
    messageId: "m1",
    eventType: "Send",
    fromAddress: "f@x",
    toAddress: "alice@example.com",
    timestamp: String(NOW - 5000),
    createdAt: String(NOW - 5000),
    details: {},
  },
  {
    id: "e2",
    organizationId: "o",
    messageId: "m1",
    eventType: "Bounce",
    fromAddress: "f@x",
    toAddress: "alice@example.com",
    timestamp: String(NOW - 4200),
    createdAt: String(NOW - 4200),
    details: { bounceType: "Permanent", diagnosticCode: "smtp; 550 user unknown" },
  },
];

export const SOL: SolTransaction[] = [
  {
    signature: "sig1",
    block: { number: "1", hash: "h", timestamp: new Date(NOW - 3000).toISOString() },
    status: "CONFIRMED",
    origin: "o",
    feePayer: "p",
    signers: [{ address: "p", writable: true }],
    fee: { amount: "5000", caip19: "c" },
    transfers: [
      {
        direction: "IN",
        amount: "1500000000",
        counterparty: "Sender111111111111111111111111111111",
        asset: { caip19: "s", symbol: "SOL", name: "Solana", decimals: 9 },
      },
    ],
  },
];

const meta = responseMeta();

export async function dashboardParts(
  options: { email?: boolean; solana?: boolean; activities?: Activity[] } = {},
) {
  const store = new LogStore({ maxLines: 1000 });
  const follower = new LogFollower({ fetchLogs: async () => ({ data: { entries: [] }, meta }) });
  await follower.pollOnce();
  const feeds: Feeds = {
    activities: new Poller({
      intervalMs: 1000,
      fetch: async () =>
        options.activities ?? [
          activity("a1", "CONSENSUS_NEEDED", 30_000),
          activity("a2", "FAILED", 90_000),
          activity("a3", "COMPLETED", 200_000),
        ],
    }),
    email:
      options.email === false
        ? undefined
        : new Poller({ intervalMs: 1000, fetch: async () => EMAILS }),
    solana:
      options.solana === false
        ? undefined
        : new Poller({ intervalMs: 1000, fetch: async () => new Map([["addr", SOL]]) }),
  };
  await feeds.activities.pollOnce();
  await feeds.email?.pollOnce();
  await feeds.solana?.pollOnce();
  return { store, follower, feeds };
}

/** A session JWT as stamp_login returns it (made up). */
export const JWT =
  "eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJleHAiOjE3OTUwMDAwMDAsInB1YmxpY19rZXkiOiIwMiJ9.c2lnbmF0dXJlLW9mLXRoZS1zZXNzaW9u";

/** A completed stamp_login, its session in the result. */
export const stampLogin: Activity = {
  id: "act-login",
  organizationId: "org",
  status: "ACTIVITY_STATUS_COMPLETED",
  type: "ACTIVITY_TYPE_STAMP_LOGIN",
  intent: { stampLoginIntent: { publicKey: "02abc", expirationSeconds: "900" } },
  result: { stampLoginResult: { session: JWT } },
  votes: [
    {
      id: "v1",
      userId: "user-1",
      activityId: "act-login",
      selection: "VOTE_SELECTION_APPROVED",
      user: voter("user-1", "oncall-root"),
    },
  ],
  fingerprint: `sha256:${"ab".repeat(32)}`,
  canApprove: false,
  canReject: false,
  createdAt: { seconds: "1795000000", nanos: "0" },
  updatedAt: "1795000000000",
};

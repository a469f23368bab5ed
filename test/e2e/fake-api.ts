/**
 * Fake Turnkey APIs on loopback for the dashboard's end-to-end tests (they do not check stamps),
 * served by the tests' one fake server (../helpers/log-server.ts):
 * a hostile one, whose well-formed responses carry escape sequences in their strings, a megabyte
 * log line and Solana amounts sized to freeze a quadratic formatter; and one streaming log lines
 * from a corpus of text that terminals draw at widths libraries disagree on.
 */
import { startLogServer } from "../helpers/log-server.js";

/** Sets the terminal title (OSC 0), writes the clipboard (OSC 52), clears the screen (CSI). */
export const ATTACK =
  "\u001b]0;PWNED-TITLE\u0007\u001b]52;c;cHduZWQ=\u0007\u001b[2J\u009b7m\u202eRTL";

export const DEPLOYMENT_ID = `dep-${ATTACK}-1`;
export const CALM_DEPLOYMENT_ID = "dep-1";
export const BIG_LINE_CHARS = 1_000_000;

/**
 * Turnkey's published test key pair (not a secret), as the environment the program reads: these
 * fake servers do not check stamps, so any key would do.
 */
export const KEYS = {
  TURNKEY_API_PRIVATE_KEY: "487f361ddfd73440e707f4daa6775b376859e8a3c9f29b3bb694a12927c0213c",
  TURNKEY_API_PUBLIC_KEY: "02f739f8c77b32f4d5f13265861febd76e7a9c61a1140d296b8c16302508870316",
};

export interface FakeApi {
  url: string;
  close(): Promise<void>;
}

/** The dashboard's arguments over `api`'s calm deployment, then `flags`. */
export const calmDashboard = (api: FakeApi, ...flags: string[]): string[] => [
  "--base-url",
  api.url,
  "--organization",
  "org-1",
  "--deployment",
  CALM_DEPLOYMENT_ID,
  ...flags,
];

const ts = (ms: number) => ({
  seconds: String(Math.floor(ms / 1000)),
  nanos: String(Math.round((ms % 1000) * 1e6)),
});

/** Every response but the logs, with `inject` in their strings. */
function paneResponses(now: number, inject: string, deploymentId: string): Record<string, unknown> {
  return {
    list_tvc_apps: {
      tvcApps: [
        {
          id: "app-1",
          organizationId: "org-1",
          name: `payments${inject}`,
          liveDeploymentId: deploymentId,
        },
      ],
    },
    list_tvc_app_deployments: {
      tvcDeployments: [
        { id: deploymentId, organizationId: "org-1", appId: "app-1", debugMode: true },
      ],
    },
    get_tvc_deployment: {
      tvcDeployment: { id: deploymentId, organizationId: "org-1", appId: "app-1", debugMode: true },
    },
    list_activities: {
      activities: [
        {
          id: "act-1",
          organizationId: "org-1",
          status: `ACTIVITY_STATUS_CONSENSUS_NEEDED${inject}`,
          type: `ACTIVITY_TYPE_SIGN_TRANSACTION_V2${inject}`,
          intent: {},
          result: {},
          votes: [],
          fingerprint: `sha256:${inject}`,
          canApprove: false,
          canReject: false,
          createdAt: ts(now - 60_000),
          updatedAt: ts(now - 60_000),
        },
      ],
    },
    list_email_events: {
      emailEvents: [
        {
          id: "e-1",
          organizationId: "org-1",
          messageId: "m-1",
          eventType: `Bounce${inject}`,
          fromAddress: "noreply@example.com",
          toAddress: "ops@example.com",
          timestamp: String(now - 5000),
          createdAt: String(now - 5000),
          details: {},
        },
      ],
    },
    whoami: {
      organizationId: "org-1",
      organizationName: `org${inject}`,
      userId: "u-1",
      username: `user${inject}`,
    },
  };
}

function hostileResponses(now: number): Record<string, unknown> {
  return {
    ...paneResponses(now, ATTACK, DEPLOYMENT_ID),
    get_tvc_deployment_debug_logs: {
      entries: [
        {
          line: { content: `INFO hello ${ATTACK}`, ts: ts(now - 3000) },
          replicaLabel: "replica 1/1",
        },
        {
          line: { content: `BIG ${"x".repeat(BIG_LINE_CHARS)} END`, ts: ts(now - 2000) },
          replicaLabel: "replica 1/1",
        },
        { line: { content: "INFO last line", ts: ts(now - 1000) }, replicaLabel: "replica 1/1" },
      ],
    },
    list_sol_transaction_history: {
      transactions: [
        {
          signature: "sig-1",
          block: { number: "1", hash: "h", timestamp: new Date(now - 4000).toISOString() },
          status: "CONFIRMED",
          origin: "o",
          feePayer: "p",
          signers: [{ address: "p", writable: true }],
          fee: { amount: "5000", caip19: "c" },
          transfers: [
            {
              direction: "IN",
              amount: "1",
              counterparty: "Sender1111",
              asset: { caip19: "s", symbol: "HUGE", name: "Huge", decimals: 100_000 },
            },
            { direction: "OUT", amount: "7".repeat(100_000), counterparty: "Recv2222" },
          ],
        },
      ],
    },
  };
}

/** Lines that terminals draw at widths libraries disagree on, tabs, and controls. */
export const WIDTH_CORPUS = [
  "skin tones 👍🏽 👋🏿 🧑🏽‍💻 done",
  "vs16 ❤️ ⚠️ ☺️ ©️ ℹ️ ↔️ done",
  "keycaps 1️⃣ #️⃣ 9️⃣ done",
  "flags 🇩🇪 🇯🇵 🏳️‍🌈 🏴‍☠️ done",
  "zwj 👩‍💻 👨‍👩‍👧 🧑‍🎄 done",
  "cjk 用户登录成功 ｶﾀｶﾅ 한국어 done",
  "combining e\u0301 n\u0303 a\u0308 \u0301lone done",
  "\tat com.example.payments.Signer.sign(Signer.java:42)",
  "tab\there\tand\tthere\tdone",
  "zero\u200bwidth\u200c\u2060joiners\u200d done",
  "newer emoji 🫨 🫸 🛜 done",
  `wrapped ${"用户👍🏽❤️\t1️⃣👩‍💻e\u0301 ".repeat(12)}end`,
  `long ascii ${"0123456789".repeat(30)} end`,
];

const SLOT_MS = 200;

/** The corpus as a stream: one line per 200 ms slot over the last 20 s, stable across polls. */
function corpusResponses(now: number): Record<string, unknown> {
  const last = Math.floor(now / SLOT_MS);
  const entries = [];
  for (let slot = last - 100; slot <= last; slot++) {
    entries.push({
      line: { content: WIDTH_CORPUS[slot % WIDTH_CORPUS.length], ts: ts(slot * SLOT_MS) },
      replicaLabel: `replica ${(slot % 2) + 1}/2`,
    });
  }
  return {
    ...paneResponses(now, "", CALM_DEPLOYMENT_ID),
    list_sol_transaction_history: { transactions: [] },
    get_tvc_deployment_debug_logs: { entries },
  };
}

/** The one fake server (../helpers/log-server.ts), answering every operation from `responses`. */
const start = (responses: (now: number) => Record<string, unknown>): Promise<FakeApi> =>
  startLogServer({ operations: responses });

/**
 * A deployment's log to read as on-call does, one line per 200 ms slot over the last 30 s: plain
 * INFO and WARN lines, JSON lines (one with its level nested under `fields`), and every 2 s an
 * ERROR with three stack frames. Its replicas live: replica 2 is silent from 2 s to 9 s after the
 * server starts, and a third replica joins at 4 s (the labels go from `/2` to `/3`).
 */
function readingResponses(startedAt: number): (now: number) => Record<string, unknown> {
  return (now) => {
    const last = Math.floor(now / SLOT_MS);
    const entries = [];
    for (let slot = last - 150; slot <= last; slot++) {
      const at = slot * SLOT_MS;
      const joined = at >= startedAt + 4_000;
      const count = joined ? 3 : 2;
      const replica = (slot % count) + 1;
      if (replica === 2 && at >= startedAt + 2_000 && at < startedAt + 9_000) continue;
      const replicaLabel = `replica ${replica}/${count}`;
      const kind = slot % 10;
      const content =
        kind === 0
          ? `ERROR payment: upstream timeout after 5000ms seq=${slot}`
          : kind === 3
            ? `WARN  signer: slow quorum 812ms seq=${slot}`
            : kind === 5
              ? JSON.stringify({
                  msg: "settled transfer",
                  fields: { level: "warn", service: "ledger" },
                  seq: slot,
                })
              : kind === 7
                ? JSON.stringify({ level: "info", msg: "processed batch", seq: slot })
                : `INFO  http: request ok seq=${slot}`;
      entries.push({ line: { content, ts: ts(at) }, replicaLabel });
      if (kind === 0) {
        for (const [i, frame] of ["fetchNonce", "evaluatePolicy", "handleRequest"].entries()) {
          entries.push({
            line: {
              content: `    at ${frame} (/app/dist/ledger.js:${10 + i}:5)`,
              ts: ts(at + 1 + i),
            },
            replicaLabel,
          });
        }
      }
    }
    return {
      ...paneResponses(now, "", CALM_DEPLOYMENT_ID),
      list_sol_transaction_history: { transactions: [] },
      get_tvc_deployment_debug_logs: { entries },
    };
  };
}

/** The activity awaiting votes on the crowded server: an export with 40 votes. */
export const CROWDED_ACTIVITY_ID = "418b4e9d-1111-4000-8000-000000000001";
export const CROWDED_FINGERPRINT = `sha256:${"0a1b2c3d".repeat(8)}`;
export const CROWDED_TARGET_KEY = `04${"5e".repeat(64)}`;

/**
 * An organization with one activity awaiting my vote: export_wallet, its target public key,
 * 40 votes (sre-lead's, a root user's, and 39 others'), a quorum of 2 root users of whom 1
 * approved. approve_activity answers with it COMPLETED.
 */
function crowdedResponses(now: number): Record<string, unknown> {
  const user = (userId: string, userName: string) => ({
    userId,
    userName,
    authenticators: [],
    apiKeys: [],
    userTags: [],
    oauthProviders: [],
    createdAt: ts(now - 86_400_000),
    updatedAt: ts(now - 86_400_000),
    mfaPolicies: [],
  });
  const activity = (status: string) => ({
    id: CROWDED_ACTIVITY_ID,
    organizationId: "org-1",
    status,
    type: "ACTIVITY_TYPE_EXPORT_WALLET",
    intent: {
      exportWalletIntent: { walletId: "wallet-7", targetPublicKey: CROWDED_TARGET_KEY },
    },
    result: {},
    votes: Array.from({ length: 40 }, (_, i) => ({
      id: `v-${i}`,
      userId: i === 0 ? "u-2" : `u-voter-${i}`,
      user: i === 0 ? user("u-2", "sre-lead") : user(`u-voter-${i}`, `voter-${i}`),
      activityId: CROWDED_ACTIVITY_ID,
      selection: "VOTE_SELECTION_APPROVED",
      createdAt: ts(now - 60_000 + i * 100),
    })),
    fingerprint: CROWDED_FINGERPRINT,
    canApprove: status === "ACTIVITY_STATUS_CONSENSUS_NEEDED",
    canReject: status === "ACTIVITY_STATUS_CONSENSUS_NEEDED",
    createdAt: ts(now - 60_000),
    updatedAt: ts(now - 30_000),
  });
  return {
    ...paneResponses(now, "", CALM_DEPLOYMENT_ID),
    list_activities: { activities: [activity("ACTIVITY_STATUS_CONSENSUS_NEEDED")] },
    whoami: {
      organizationId: "org-1",
      organizationName: "org",
      userId: "u-1",
      username: "oncall-root",
    },
    get_organization_configs: {
      configs: { features: [], quorum: { threshold: 2, userIds: ["u-1", "u-2"] } },
    },
    list_users: { users: [user("u-1", "oncall-root"), user("u-2", "sre-lead")] },
    approve_activity: { activity: activity("ACTIVITY_STATUS_COMPLETED") },
    list_sol_transaction_history: { transactions: [] },
    get_tvc_deployment_debug_logs: { entries: [] },
  };
}

export const startCrowdedVoteApi = () => start(crowdedResponses);
export const startReadingApi = () => start(readingResponses(Date.now()));
export const startHostileApi = () => start(hostileResponses);
export const startCorpusApi = () => start(corpusResponses);

/**
 * The decision core behind `tvcwatch activity approve|reject|get|wait` and the dashboard's A / R
 * keys: who may vote and why not, the quorum progress, the creator and voters by name, and the
 * confirmation's lines, without a terminal or a server.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  confirmation,
  type DecisionContext,
  decideActivity,
  detailLines,
  outcomeLine,
  statusLine,
} from "../../src/activity/activity-decision.js";
import { summarizeIntent } from "../../src/activity/intent-summary.js";
import type { Activity, Vote } from "../../src/api/schemas.js";

const NOW = 1_790_000_000_000;
const ROOT = "u-oncall";
const LEAD = "u-lead";
const CI = "u-ci";
const quorum = { threshold: 2, userIds: [ROOT, LEAD] };
const userNames = new Map([
  [ROOT, "oncall-root"],
  [LEAD, "sre-lead"],
  [CI, "ci-deployer"],
]);

const submitted = JSON.stringify({
  type: "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE",
  timestampMs: String(NOW - 420_000),
  organizationId: "org",
  parameters: { name: "FEATURE_NAME_WEBAUTHN_ORIGINS", value: "https://app.example" },
});
const fingerprint = `sha256:${createHash("sha256").update(submitted).digest("hex")}`;
const ts = (ms: number) => ({ seconds: String(Math.floor(ms / 1000)), nanos: "0" });

function vote(
  userId: string,
  selection: string,
  message: string,
  atMs: number,
  name?: string,
): Vote {
  return {
    id: `v-${userId}`,
    userId,
    ...(name ? { user: { userId, userName: name } as Vote["user"] } : {}),
    activityId: "act-1",
    selection,
    message,
    publicKey: "02ab",
    signature: "30",
    scheme: "SIGNATURE_SCHEME_TK_API_P256",
    createdAt: ts(atMs),
  };
}

function activity(overrides: Partial<Activity> = {}): Activity {
  return {
    id: "act-1",
    organizationId: "org",
    status: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
    type: "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE",
    intent: {
      setOrganizationFeatureIntent: {
        name: "FEATURE_NAME_WEBAUTHN_ORIGINS",
        value: "https://app.example",
      },
    },
    result: {},
    votes: [vote(LEAD, "VOTE_SELECTION_APPROVED", submitted, NOW - 420_000, "sre-lead")],
    fingerprint,
    canApprove: true,
    canReject: true,
    createdAt: ts(NOW - 420_000),
    updatedAt: ts(NOW - 420_000),
    ...overrides,
  };
}

const asRoot: DecisionContext = {
  viewer: { userId: ROOT, username: "oncall-root" },
  quorum,
  userNames,
  now: NOW,
};

describe("who may vote, and why not", () => {
  it("a root user who has not voted may approve and reject, as the API's flags say", () => {
    const d = decideActivity(activity(), asRoot);
    expect(d.can).toEqual({ approve: { allowed: true }, reject: { allowed: true } });
  });

  it("an activity already decided: says so, whatever the flags", () => {
    for (const status of ["COMPLETED", "FAILED", "REJECTED"]) {
      const d = decideActivity(
        activity({ status: `ACTIVITY_STATUS_${status}`, canApprove: false, canReject: false }),
        asRoot,
      );
      expect(d.can.approve).toMatchObject({
        allowed: false,
        reason: { kind: "decided", status },
        why: `it is already decided: ${status}`,
      });
      expect(d.can.reject).toMatchObject({ allowed: false, reason: { kind: "decided" } });
    }
    // Nothing is awaited any more: no root users line, and no votes is "none", not "none yet".
    const done = decideActivity(
      activity({ status: "ACTIVITY_STATUS_COMPLETED", votes: [], canApprove: false }),
      asRoot,
    );
    const lines = detailLines(done, asRoot);
    expect(lines).toContain("  votes        none");
    expect(lines.some((l) => l.startsWith("  root users"))).toBe(false);
    expect(statusLine(done, asRoot)).toBe("COMPLETED");
  });

  it("the viewer's own vote: already approved (or rejected)", () => {
    const d = decideActivity(activity({ canApprove: false, canReject: false }), {
      ...asRoot,
      viewer: { userId: LEAD, username: "sre-lead" },
    });
    expect(d.can.approve).toMatchObject({
      allowed: false,
      reason: { kind: "already-voted", selection: "approved" },
      why: "you already approved it",
    });
    const rejected = activity({
      canApprove: false,
      canReject: false,
      votes: [vote(ROOT, "VOTE_SELECTION_REJECTED", "{}", NOW - 1000)],
    });
    expect(decideActivity(rejected, asRoot).can.reject).toMatchObject({
      why: "you already rejected it",
    });
  });

  it("a user outside the root quorum: not a root user, naming the quorum", () => {
    const d = decideActivity(activity({ canApprove: false, canReject: false }), {
      ...asRoot,
      viewer: { userId: CI, username: "ci-deployer" },
    });
    expect(d.can.approve).toMatchObject({
      allowed: false,
      reason: { kind: "not-root-user", viewerName: "ci-deployer" },
      why: "you (ci-deployer) are not a root user; the root quorum is oncall-root and sre-lead",
    });
  });

  it("not awaiting votes yet, or the API says no for a reason not visible here", () => {
    const pending = decideActivity(
      activity({
        status: "ACTIVITY_STATUS_PENDING",
        canApprove: false,
        canReject: false,
        votes: [],
      }),
      asRoot,
    );
    expect(pending.can.approve).toMatchObject({
      why: "it is not awaiting votes (status PENDING)",
    });
    const refused = decideActivity(activity({ canApprove: false, canReject: false }), asRoot);
    expect(refused.can.approve).toMatchObject({
      reason: { kind: "refused-by-api", flag: "canApprove" },
      why: "the API does not let you approve it (canApprove is false)",
    });
    expect(refused.can.reject).toMatchObject({ why: expect.stringMatching(/canReject is false/) });
  });
});

describe("quorum progress, creator and voters by name", () => {
  it("counts root users' approvals against the threshold and names who is awaited", () => {
    const d = decideActivity(activity(), asRoot);
    expect(d.progress).toMatchObject({ approvals: 1, rejections: 0, threshold: 2, needed: 1 });
    expect(d.progress.text).toBe("1 of 2 root users approved");
    expect(d.progress.awaited.map((u) => u.name)).toEqual(["oncall-root"]);
    expect(statusLine(d, asRoot)).toBe(
      "CONSENSUS_NEEDED: 1 of 2 root users approved; waiting for oncall-root (you)",
    );
  });

  it("a vote by a user outside the quorum does not count, nor does a second vote of one user", () => {
    const d = decideActivity(
      activity({
        votes: [
          vote(CI, "VOTE_SELECTION_APPROVED", submitted, NOW - 9000),
          vote(LEAD, "VOTE_SELECTION_APPROVED", "{}", NOW - 5000),
          vote(LEAD, "VOTE_SELECTION_APPROVED", "{}", NOW - 4000),
        ],
      }),
      asRoot,
    );
    expect(d.progress.approvals).toBe(1);
    expect(d.votes.map((v) => [v.name, v.rootUser])).toEqual([
      ["ci-deployer", false],
      ["sre-lead", true],
      ["sre-lead", true],
    ]);
  });

  it("a quorum of 2 of 3 says so; rejections are counted", () => {
    const d = decideActivity(
      activity({
        votes: [
          vote(LEAD, "VOTE_SELECTION_APPROVED", submitted, NOW - 9000),
          vote("u-third", "VOTE_SELECTION_REJECTED", "{}", NOW - 1000),
        ],
      }),
      { ...asRoot, quorum: { threshold: 2, userIds: [ROOT, LEAD, "u-third"] } },
    );
    expect(d.progress.text).toBe("1 of 2 root users approved (quorum: any 2 of 3), 1 rejected");
    expect(d.progress.awaited.map((u) => u.name)).toEqual(["oncall-root"]);
  });

  it("without the quorum: approvals so far, and the API's flags decide", () => {
    const d = decideActivity(activity(), { ...asRoot, quorum: undefined });
    expect(d.progress.text).toBe("1 approval so far (root quorum unknown)");
    expect(d.progress.threshold).toBeUndefined();
    expect(d.can.approve.allowed).toBe(true);
  });

  it("the creator is the voter whose vote signs the submitted request itself", () => {
    const d = decideActivity(
      activity({
        votes: [
          vote(ROOT, "VOTE_SELECTION_APPROVED", '{"type":"ACTIVITY_TYPE_APPROVE_ACTIVITY"}', NOW),
          vote(LEAD, "VOTE_SELECTION_APPROVED", submitted, NOW - 420_000),
        ],
      }),
      asRoot,
    );
    expect(d.creator).toEqual({ userId: LEAD, name: "sre-lead", named: true });
    expect(d.votes.map((v) => v.submitter)).toEqual([false, true]);
    // Nobody's vote signs the request (a submitter outside the quorum casts none): not named.
    expect(decideActivity(activity({ votes: [] }), asRoot).creator).toBeUndefined();
  });

  it("names come from the vote's user record, else list_users, else the viewer; else the ID", () => {
    const d = decideActivity(
      activity({
        votes: [
          vote(LEAD, "VOTE_SELECTION_APPROVED", submitted, NOW, "lead-from-vote"),
          vote(CI, "VOTE_SELECTION_APPROVED", "{}", NOW),
          vote("u-gone", "VOTE_SELECTION_APPROVED", "{}", NOW),
        ],
      }),
      asRoot,
    );
    expect(d.votes.map((v) => [v.name, v.named])).toEqual([
      ["lead-from-vote", true],
      ["ci-deployer", true],
      ["u-gone", false],
    ]);
  });
});

describe("the confirmation", () => {
  it("shows what is decided (verb, type, id, the whole fingerprint, quorum), then status, creator, votes, root users and the intent", () => {
    const c = confirmation(decideActivity(activity(), asRoot), "approve", asRoot);
    const { question, lines } = c;
    expect(question).toBe("Approve this activity?");
    expect(c.header).toEqual([
      "  you approve  set_organization_feature (ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE)",
      "  activity     act-1",
      `  fingerprint  ${fingerprint}`,
      "  quorum       1 of 2 root users approved",
    ]);
    expect(lines).toEqual([
      ...c.header,
      "  status       CONSENSUS_NEEDED: 1 of 2 root users approved; waiting for oncall-root (you)",
      "  created      7m ago by sre-lead",
      "  votes        approved by sre-lead (by submitting it) 7m ago",
      "  root users   oncall-root (you), sre-lead",
      "  intent",
      "    name   FEATURE_NAME_WEBAUTHN_ORIGINS",
      "    value  https://app.example",
      "  your vote    approving makes it 2 of 2: the quorum is reached and the activity runs",
    ]);
    expect(fingerprint).toHaveLength(71);
  });

  it("says when nobody voted and nobody is named as creator, and asks to reject", () => {
    const waiting = decideActivity(activity({ votes: [] }), asRoot);
    const { question, lines, header } = confirmation(waiting, "reject", asRoot);
    expect(question).toBe("Reject this activity?");
    expect(header[0]).toBe(
      "  you reject   set_organization_feature (ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE)",
    );
    expect(lines).toContain(
      "  created      7m ago (the API names no creator: no vote signs the request)",
    );
    expect(lines).toContain("  votes        none yet");
    expect(lines.at(-1)).toBe(
      "  your vote    rejecting leaves too few root users to approve it: it is REJECTED",
    );
    expect(confirmation(waiting, "approve", asRoot).lines.at(-1)).toBe(
      "  your vote    approving makes it 1 of 2; 1 more approval needed after yours",
    );
    // With any 2 of 3, one rejection leaves two root users who can still approve.
    const wide = { ...asRoot, quorum: { threshold: 2, userIds: [ROOT, LEAD, "u-third"] } };
    expect(
      confirmation(decideActivity(activity({ votes: [] }), wide), "reject", wide).lines.at(-1),
    ).toBe("  your vote    rejecting is counted; 2 other root users can still approve it");
    expect(lines).toContain(
      "  status       CONSENSUS_NEEDED: 0 of 2 root users approved; waiting for oncall-root (you) and sre-lead",
    );
  });

  it("escapes escape sequences, bidi and control characters in every server string", () => {
    const hostile = "evil\u001b]0;owned\u0007\u001b[2J\u009b31m\u202ename";
    const d = decideActivity(
      activity({
        id: `act-${hostile}`,
        votes: [vote(LEAD, "VOTE_SELECTION_APPROVED", submitted, NOW, hostile)],
        intent: { setOrganizationFeatureIntent: { name: hostile, value: hostile } },
        failure: { message: hostile },
      }),
      asRoot,
    );
    const all = [
      ...detailLines(d, asRoot),
      statusLine(d, asRoot),
      outcomeLine("approve", d, asRoot),
      ...(d.can.approve.allowed ? [] : [d.can.approve.why]),
    ].join("\n");
    expect(all).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
    expect(all).toContain("\\x1b]0;owned");
  });
});

describe("status and outcome lines", () => {
  it("after a vote: completed, still waiting (for whom), rejected, failed with its message", () => {
    const done = decideActivity(
      activity({ status: "ACTIVITY_STATUS_COMPLETED", canApprove: false, canReject: false }),
      asRoot,
    );
    expect(outcomeLine("approve", done)).toBe("approved activity act-1: COMPLETED");
    expect(outcomeLine("approve", decideActivity(activity(), asRoot), asRoot)).toBe(
      "approved activity act-1: CONSENSUS_NEEDED: 1 of 2 root users approved; waiting for oncall-root (you)",
    );
    const rejected = decideActivity(activity({ status: "ACTIVITY_STATUS_REJECTED" }), asRoot);
    expect(outcomeLine("reject", rejected)).toBe("rejected activity act-1: REJECTED");
    const failed = decideActivity(
      activity({
        status: "ACTIVITY_STATUS_FAILED",
        failure: { code: 7, message: "no policy\nallows it" },
      }),
      asRoot,
    );
    expect(statusLine(failed)).toBe("FAILED: no policy allows it");
  });
});

describe("the intent summary", () => {
  it("flattens nested fields, shows public keys whole, names user IDs and redacts secrets", () => {
    const lines = summarizeIntent(
      {
        createApiKeysIntentV2: {
          apiKeys: [
            {
              apiKeyName: "ci",
              publicKey: `02${"ab".repeat(32)}`,
              curveType: "API_KEY_CURVE_P256",
            },
          ],
          userId: CI,
          oidcToken: "eyJhbGciOi.secret.token",
          tags: ["a", "b"],
          none: [],
        },
      },
      { userNames },
    );
    expect(lines).toEqual([
      "apiKeys[0].apiKeyName  ci",
      `apiKeys[0].publicKey   02${"ab".repeat(32)}`,
      "apiKeys[0].curveType   API_KEY_CURVE_P256",
      "userId                 u-ci (ci-deployer)",
      "oidcToken              [redacted: 23 characters]",
      "tags                   a, b",
      "none                   (none)",
    ]);
  });

  it("says when there are no parameters, and counts the fields past its limit", () => {
    expect(summarizeIntent({ createReadOnlySessionIntent: {} })).toEqual(["(no parameters)"]);
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, i]));
    const lines = summarizeIntent({ bigIntent: many }, { maxLines: 5 });
    expect(lines).toHaveLength(5);
    expect(lines.at(-1)).toBe("… 16 more fields (tvcwatch activity get ID -o json)");
  });
});

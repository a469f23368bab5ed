/**
 * `tvcwatch activity` as a user runs it, against the simulator started the way the README says
 * (`tvcwatch sim --write-config F`, which also writes F's `.sre-lead` twin for the second root
 * user): the two-vote flow (submit as one root user, approve as the other, `wait` returns 0),
 * rejection (`wait` returns 1), a wait that times out (2), why a vote cannot be cast (already
 * decided, already voted, not a root user), no terminal without --yes, fingerprints, list and
 * get, and one-line errors (expired key, unknown activity, network down). Then against scripted
 * servers: a retried vote resends the identical body, and hostile server text stays inert.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/api/stamp.js";
import { MASKED_KEY, maskKeyMaterial, SecretValues } from "../../src/text/key-material.js";
import { json, scriptedServer } from "../helpers/http-server.js";
import { type CliResult, runCli } from "../helpers/run-cli.js";
import { startSimProcess } from "../helpers/sim-process.js";
import { waitFor } from "../helpers/wait-for.js";

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-activity-"));
const demo = join(dir, "sim.json");
const lead = join(dir, "sim.sre-lead.json");
let sim: ChildProcess;
let baseUrl: string;
let organizationId: string;

async function startSim(): Promise<void> {
  const started = await startSimProcess(["--seed", "11", "--write-config", demo]);
  sim = started.process;
  baseUrl = started.url;
}

beforeAll(async () => {
  await startSim();
  const whoami = await cli(demo, "call", "whoami");
  organizationId = JSON.parse(whoami.stdout).organizationId;
}, 30_000);

afterAll(() => {
  sim?.kill("SIGTERM");
});

function cli(config: string, ...args: string[]): Promise<CliResult> {
  return runCli(["--config", config, ...args], { timeoutMs: 40_000 });
}

/** As cli, with what it has said on stderr so far readable while it runs. */
function cliSaying(
  config: string,
  ...args: string[]
): { result: Promise<CliResult>; said: () => string } {
  let said = "";
  const result = runCli(["--config", config, ...args], {
    timeoutMs: 40_000,
    onStderr: (text) => (said += text),
  });
  return { result, said: () => said };
}

/** Lines of stderr, for "exactly one line" checks. */
const lines = (text: string) => text.split("\n").filter((l) => l !== "");

let submitted = 0;
/** Submits set_organization_feature as the demo key's user (a root user): it awaits sre-lead. */
async function submitFeature(): Promise<{ id: string; fingerprint: string }> {
  submitted += 1;
  const r = await cli(
    demo,
    "call",
    "set_organization_feature",
    "--body",
    JSON.stringify({ name: "FEATURE_NAME_WEBHOOK", value: `https://hooks.example/${submitted}` }),
  );
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const { activity } = JSON.parse(r.stdout);
  expect(activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
  return { id: activity.id, fingerprint: activity.fingerprint };
}

async function statusOf(id: string): Promise<{ status: string; votes: unknown[] }> {
  const r = await cli(demo, "activity", "get", id, "-o", "json");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).activity;
}

/** A config of the simulator's organization with another key. */
function configWith(
  name: string,
  pair: { publicKey: string; privateKey: string },
  url = baseUrl,
): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      baseUrl: url,
      organizationId,
      apiPublicKey: pair.publicKey,
      apiPrivateKey: pair.privateKey,
    }),
    { mode: 0o600 },
  );
  return path;
}

/** A new API key for ci-deployer (not a root user), registered by the demo key. */
async function ciDeployerConfig(expirationSeconds?: string): Promise<string> {
  const users = JSON.parse((await cli(demo, "call", "list_users")).stdout).users as {
    userId: string;
    userName: string;
  }[];
  const userId = users.find((u) => u.userName === "ci-deployer")?.userId;
  const pair = generateKeyPair();
  const r = await cli(
    demo,
    "call",
    "create_api_keys",
    "--body",
    JSON.stringify({
      userId,
      apiKeys: [
        {
          apiKeyName: `ci ${pair.publicKey.slice(0, 8)}`,
          publicKey: pair.publicKey,
          curveType: "API_KEY_CURVE_P256",
          ...(expirationSeconds ? { expirationSeconds } : {}),
        },
      ],
    }),
  );
  expect(r.code).toBe(0);
  return configWith(`ci-${pair.publicKey.slice(0, 8)}`, pair);
}

describe("the two-vote flow through the spawned CLI", () => {
  it("submit as one root user, approve as the other: wait returns 0 as soon as it completes", {
    timeout: 60_000,
  }, async () => {
    const { id } = await submitFeature();
    const waiting = cliSaying(
      demo,
      "activity",
      "wait",
      id,
      "--interval",
      "250ms",
      "--timeout",
      "30s",
    );
    // The wait has seen it waiting for a vote first.
    await waitFor(() => waiting.said().includes("CONSENSUS_NEEDED"), "the wait's first report", {
      detail: waiting.said,
    });
    const approved = await cli(lead, "activity", "approve", id, "--yes");
    expect(approved.stderr).toBe("");
    expect(approved.code).toBe(0);
    expect(approved.stdout).toBe(`approved activity ${id}: COMPLETED\n`);
    const waited = await waiting.result;
    expect(waited.code).toBe(0);
    const reported = lines(waited.stderr);
    expect(reported[0]).toBe(`waiting for activity ${id} (up to 30s, every 250ms)`);
    expect(reported[1]).toMatch(
      /^\d\d:\d\d:\d\d CONSENSUS_NEEDED: 1 of 2 root users approved; waiting for sre-lead$/,
    );
    expect(reported.at(-1)).toMatch(/^\d\d:\d\d:\d\d COMPLETED$/);
    expect(reported).toHaveLength(3);
    // A completed activity: another wait returns 0 at once.
    expect((await cli(demo, "activity", "wait", id)).code).toBe(0);
  });

  it("rejected by the other root user: the vote exits 0, wait returns 1", async () => {
    const { id } = await submitFeature();
    const rejected = await cli(lead, "activity", "reject", id, "--yes");
    expect(rejected.code).toBe(0);
    expect(rejected.stdout).toBe(`rejected activity ${id}: REJECTED\n`);
    const waited = await cli(demo, "activity", "wait", id);
    expect(waited.code).toBe(1);
    expect(lines(waited.stderr).at(-1)).toMatch(/^\d\d:\d\d:\d\d REJECTED$/);
  });

  it("wait on an activity still awaiting votes, with --timeout 2s: exit 2, one line saying so", async () => {
    const { id } = await submitFeature();
    const r = await cli(demo, "activity", "wait", id, "--timeout", "2s", "--interval", "500ms");
    expect(r.code).toBe(2);
    const reported = lines(r.stderr);
    expect(reported.at(-1)).toBe(
      `tvcwatch: activity ${id} is still CONSENSUS_NEEDED after 2s; run the command again to keep waiting`,
    );
    // The status was told once, not once per poll.
    expect(reported.filter((l) => l.includes("CONSENSUS_NEEDED: 1 of 2"))).toHaveLength(1);
  });

  it("approve on a completed activity says why not (exit 1), and sends no vote", async () => {
    const { id } = await submitFeature();
    expect((await cli(lead, "activity", "approve", id, "--yes")).code).toBe(0);
    const again = await cli(lead, "activity", "approve", id, "--yes");
    expect(again.code).toBe(1);
    expect(again.stdout).toBe("");
    expect(again.stderr).toBe(
      `tvcwatch: cannot approve activity ${id}: it is already decided: COMPLETED\n`,
    );
    const reject = await cli(demo, "activity", "reject", id, "--yes");
    expect(reject.stderr).toBe(
      `tvcwatch: cannot reject activity ${id}: it is already decided: COMPLETED\n`,
    );
    expect((await statusOf(id)).votes).toHaveLength(2);
  });

  it("says why not: you already voted; you are not a root user", async () => {
    const { id } = await submitFeature();
    const own = await cli(demo, "activity", "approve", id, "--yes");
    expect(own.code).toBe(1);
    expect(own.stderr).toBe(`tvcwatch: cannot approve activity ${id}: you already approved it\n`);
    const ci = await ciDeployerConfig();
    const outsider = await cli(ci, "activity", "reject", id, "--yes");
    expect(outsider.code).toBe(1);
    expect(outsider.stderr).toBe(
      `tvcwatch: cannot reject activity ${id}: you (ci-deployer) are not a root user; the root quorum is oncall-root and sre-lead\n`,
    );
    expect((await statusOf(id)).votes).toHaveLength(1);
  });

  it("without a terminal and without --yes: refused in one line (exit 2), nothing sent", async () => {
    const { id } = await submitFeature();
    const r = await cli(lead, "activity", "approve", id);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(lines(r.stderr)).toEqual([
      `tvcwatch: not approved: confirming needs a terminal (standard input or error is not one); add --yes to approve activity ${id} without asking`,
    ]);
    const after = await statusOf(id);
    expect(after.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(after.votes).toHaveLength(1);
  });

  it("by fingerprint: found and voted on; an unknown one needs --yes, and the API then says", async () => {
    const { id, fingerprint } = await submitFeature();
    const r = await cli(lead, "activity", "approve", fingerprint, "--yes", "-o", "json");
    expect(r.code).toBe(0);
    const answered = JSON.parse(r.stdout).activity;
    expect([answered.id, answered.status]).toEqual([id, "ACTIVITY_STATUS_COMPLETED"]);

    const unknown = `sha256:${"0".repeat(64)}`;
    const asked = await cli(lead, "activity", "approve", unknown);
    expect(asked.code).toBe(1);
    expect(lines(asked.stderr)).toHaveLength(1);
    expect(asked.stderr).toMatch(
      /^tvcwatch: no activity with fingerprint sha256:0{64} among the organization's newest \d+ activities, so nothing to show for confirmation; give its activity ID, or add --yes to vote on the fingerprint alone\n$/,
    );
    const blind = await cli(lead, "activity", "approve", unknown, "--yes");
    expect(blind.code).toBe(1);
    expect(blind.stderr).toMatch(
      /^tvcwatch: approve_activity: NOT_FOUND \(HTTP 404\): no activity has fingerprint sha256:0{64}\n$/,
    );
  });
});

describe("--fingerprint: vote only on what was reviewed", () => {
  it("another fingerprint: exit 1 in one line, nothing voted; the one reviewed: voted", async () => {
    const { id, fingerprint } = await submitFeature();
    const reviewed = `sha256:${"1".repeat(64)}`;
    for (const action of ["approve", "reject"]) {
      const r = await cli(lead, "activity", action, id, "--fingerprint", reviewed, "--yes");
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(lines(r.stderr)).toEqual([
        `tvcwatch: activity ${id} has fingerprint ${fingerprint}, not ${reviewed}: it is not what was reviewed; nothing was voted`,
      ]);
    }
    expect((await statusOf(id)).votes).toHaveLength(1);
    // By fingerprint too: the fingerprint given and the one pinned must be the same.
    const byFingerprint = await cli(
      lead,
      "activity",
      "approve",
      fingerprint,
      "--fingerprint",
      reviewed,
      "--yes",
    );
    expect(byFingerprint.code).toBe(1);
    expect(byFingerprint.stderr).toMatch(/it is not what was reviewed; nothing was voted\n$/);
    const pinned = await cli(
      lead,
      "activity",
      "approve",
      id,
      "--fingerprint",
      fingerprint.toUpperCase().replace("SHA256:", "sha256:"),
      "--yes",
    );
    expect(pinned.stderr).toBe("");
    expect(pinned.stdout).toBe(`approved activity ${id}: COMPLETED\n`);
    expect(pinned.code).toBe(0);
  });

  it("a value that is not a fingerprint is a usage error naming the flag", async () => {
    const r = await cli(lead, "activity", "approve", "some-id", "--fingerprint", "abc", "--yes");
    expect(r.code).toBe(2);
    expect(lines(r.stderr)[0]).toBe(
      "tvcwatch: error: option '--fingerprint <fp>' argument 'abc' is invalid. a fingerprint is sha256: and 64 hex digits, as tvcwatch activity get shows it",
    );
  });
});

describe("list and get", () => {
  it("list --status consensus: whole IDs, status, type, votes, and which await your vote", async () => {
    const { id } = await submitFeature();
    const r = await cli(lead, "activity", "list", "--status", "consensus", "--limit", "100");
    expect(r.code).toBe(0);
    const [header, ...rows] = lines(r.stdout);
    expect(header).toMatch(/^ID +STATUS +TYPE +VOTES +AGE$/);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/^[0-9a-f-]{36} +CONSENSUS_NEEDED +/);
    expect(rows.find((row) => row.startsWith(id))).toMatch(
      /CONSENSUS_NEEDED +set_organization_feature +1 approved +\d+s +awaiting your vote$/,
    );
  });

  it("list -o json for scripts, filtered by type; secrets redacted with a note", async () => {
    const r = await cli(demo, "activity", "list", "--type", "stamp_login", "-o", "json");
    expect(r.code).toBe(0);
    const { activities } = JSON.parse(r.stdout) as {
      activities: { type: string; result: { stampLoginResult?: { session: string } } }[];
    };
    expect(activities.length).toBeGreaterThan(0);
    expect(new Set(activities.map((a) => a.type))).toEqual(new Set(["ACTIVITY_TYPE_STAMP_LOGIN"]));
    const sessions = activities.flatMap((a) => a.result.stampLoginResult?.session ?? []);
    expect(sessions.length).toBeGreaterThan(0);
    for (const s of sessions) expect(s).toMatch(/^\[redacted: \d+ characters\]$/);
    expect(r.stderr).toBe("tvcwatch: redacted session; add --reveal-secrets to print it\n");
  });

  it("a status or type that does not exist: one line naming the flag (exit 2)", async () => {
    const status = await cli(demo, "activity", "list", "--status", "consensus,finished");
    expect(status.code).toBe(2);
    expect(lines(status.stderr)[0]).toMatch(
      /^tvcwatch: error: option '--status <status>' argument 'consensus,finished' is invalid\. unknown status "finished"/,
    );
    const type = await cli(demo, "activity", "list", "--type", "set_organisation_feature");
    expect(type.code).toBe(2);
    expect(lines(type.stderr)[0]).toMatch(/did you mean set_organization_feature, /);
  });

  it("get: intent, creator and votes by name, quorum progress, and whether you can vote", async () => {
    const { id, fingerprint } = await submitFeature();
    const r = await cli(lead, "activity", "get", id);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const shown = lines(r.stdout);
    expect(shown).toContain(`  fingerprint  ${fingerprint}`);
    expect(shown).toContain(
      "  status       CONSENSUS_NEEDED: 1 of 2 root users approved; waiting for sre-lead (you)",
    );
    expect(shown).toContainEqual(expect.stringMatching(/^ {2}created {6}\d+s ago by oncall-root$/));
    expect(shown).toContainEqual(
      expect.stringMatching(/^ {2}votes {8}approved by oncall-root \(by submitting it\) \d+s ago$/),
    );
    expect(shown).toContain("    name   FEATURE_NAME_WEBHOOK");
    expect(shown).toContain("  can approve  yes");
    const unknown = await cli(lead, "activity", "get", "no-such-activity");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      "tvcwatch: get_activity: NOT_FOUND (HTTP 404): activity no-such-activity not found; tvcwatch activity list shows the organization's activities\n",
    );
  });
});

describe("errors are one line with the documented exit status", () => {
  it("a fingerprint in an error is shown whole; the configured key beside it is not", () => {
    const key = "487f361ddfd73440e707f4daa6775b376859e8a3c9f29b3bb694a12927c0213c";
    const secrets = new SecretValues();
    secrets.add(key);
    const fingerprint = `sha256:${"0a".repeat(32)}`;
    expect(maskKeyMaterial(`no activity has fingerprint ${fingerprint}; key ${key}`, secrets)).toBe(
      `no activity has fingerprint ${fingerprint}; key ${MASKED_KEY}`,
    );
  });

  it("an expired API key: exit 1, saying what to do", { timeout: 30_000 }, async () => {
    const ci = await ciDeployerConfig("1");
    // The key expires a second after it was made: asked until the server says so.
    let r = await cli(ci, "activity", "list");
    await waitFor(
      async () => {
        if (r.code !== 0) return true;
        r = await cli(ci, "activity", "list");
        return r.code !== 0;
      },
      "the key to expire",
      { everyMs: 100 },
    );
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^tvcwatch: list_activities: UNAUTHENTICATED \(HTTP 401\): expired api key.*; the API key has expired: make a new one \(tvcwatch keys generate --name NAME\) and register its public key\n$/,
    );
  });

  it("the network down (nothing listens): exit 2, naming the refused connection", {
    timeout: 60_000,
  }, async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const path = configWith("closed-port", generateKeyPair(), `http://127.0.0.1:${port}`);
    const r = await cli(path, "activity", "approve", "some-id", "--yes");
    expect(r.code).toBe(2);
    const last = lines(r.stderr).at(-1);
    expect(last).toMatch(
      new RegExp(
        `^tvcwatch: \\w+: connection refused by 127\\.0\\.0\\.1:${port} \\(gave up after 5 attempts\\)$`,
      ),
    );
    // Retry notices aside, nothing else is said.
    for (const l of lines(r.stderr).slice(0, -1)) expect(l).toMatch(/retrying in/);
  });
});

/** An activity as the API sends it, for the scripted servers. */
function activityJson(overrides: Record<string, unknown> = {}) {
  const ts = { seconds: String(Math.floor(Date.now() / 1000) - 60), nanos: "0" };
  return {
    id: "act-1",
    organizationId: "org-1",
    status: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
    type: "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE",
    intent: { setOrganizationFeatureIntent: { name: "FEATURE_NAME_WEBHOOK", value: "x" } },
    result: {},
    votes: [],
    fingerprint: `sha256:${"ab".repeat(32)}`,
    canApprove: true,
    canReject: true,
    createdAt: ts,
    updatedAt: ts,
    ...overrides,
  };
}

/** A user record as list_users and votes carry it. */
function userJson(userId: string, userName: string) {
  const ts = { seconds: "1790000000", nanos: "0" };
  return {
    userId,
    userName,
    authenticators: [],
    apiKeys: [],
    userTags: [],
    oauthProviders: [],
    createdAt: ts,
    updatedAt: ts,
    mfaPolicies: [],
  };
}

/** The lists that name the organization's records, answered empty: true when `op` is one. */
function answeredNames(op: string | undefined, res: Parameters<typeof json>[0]): boolean {
  const empty: Record<string, string> = {
    list_wallets: "wallets",
    list_wallet_accounts: "accounts",
    list_private_keys: "privateKeys",
    list_user_tags: "userTags",
    list_policies: "policies",
    list_smart_contract_interfaces: "smartContractInterfaces",
  };
  const key = op === undefined ? undefined : empty[op];
  if (key) json(res, 200, { [key]: [] });
  return key !== undefined;
}

async function scriptedConfig(url: string): Promise<string> {
  const pair = generateKeyPair();
  const path = join(dir, `scripted-${pair.publicKey.slice(0, 8)}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      baseUrl: url,
      organizationId: "org-1",
      apiPublicKey: pair.publicKey,
      apiPrivateKey: pair.privateKey,
    }),
    { mode: 0o600 },
  );
  return path;
}

describe("against scripted servers", () => {
  it("a vote retried after a 503 resends the identical body and stamp (idempotent)", async () => {
    let votes = 0;
    const server = await scriptedServer((req, res) => {
      const op = req.url.split("/").at(-1);
      if (op === "whoami")
        return json(res, 200, {
          organizationId: "org-1",
          organizationName: "Org",
          userId: "u-me",
          username: "me",
        });
      if (op === "get_organization_configs")
        return json(res, 200, { configs: { quorum: { threshold: 1, userIds: ["u-me"] } } });
      if (op === "list_users") return json(res, 200, { users: [userJson("u-me", "me")] });
      if (op === "get_activity") return json(res, 200, { activity: activityJson() });
      if (op === "approve_activity") {
        votes += 1;
        if (votes === 1) return json(res, 503, { code: 14, message: "try again" });
        return json(res, 200, {
          activity: activityJson({
            status: "ACTIVITY_STATUS_COMPLETED",
            canApprove: false,
            canReject: false,
          }),
        });
      }
      json(res, 404, { code: 5, message: `no ${op}` });
    });
    try {
      const r = await cli(
        await scriptedConfig(server.url),
        "activity",
        "approve",
        "act-1",
        "--yes",
      );
      expect(r.stdout).toBe("approved activity act-1: COMPLETED\n");
      expect(r.code).toBe(0);
      const sent = server.requests.filter((q) => q.url.endsWith("/approve_activity"));
      expect(sent).toHaveLength(2);
      expect(sent[1]?.body).toBe(sent[0]?.body);
      expect(sent[1]?.headers["x-stamp"]).toBe(sent[0]?.headers["x-stamp"]);
      expect(JSON.parse(sent[0]?.body ?? "{}")).toMatchObject({
        type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
        organizationId: "org-1",
        parameters: { fingerprint: `sha256:${"ab".repeat(32)}` },
      });
    } finally {
      await server.close();
    }
  });

  it("get_activity answered with another activity: approve, reject, wait and get exit 1 naming it; no vote is sent", async () => {
    const other = "f139a382-0000-4000-8000-000000000000";
    const server = await scriptedServer((req, res) => {
      const op = req.url.split("/").at(-1);
      if (answeredNames(op, res)) return;
      if (op === "whoami")
        return json(res, 200, {
          organizationId: "org-1",
          organizationName: "Org",
          userId: "u-me",
          username: "me",
        });
      if (op === "get_organization_configs")
        return json(res, 200, { configs: { quorum: { threshold: 1, userIds: ["u-me"] } } });
      if (op === "list_users") return json(res, 200, { users: [userJson("u-me", "me")] });
      if (op === "get_activity")
        return json(res, 200, {
          activity: activityJson({ id: other, type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2" }),
        });
      json(res, 200, {
        activity: activityJson({ id: other, status: "ACTIVITY_STATUS_COMPLETED" }),
      });
    });
    try {
      const config = await scriptedConfig(server.url);
      const asked = "7d4b7663-0000-4000-8000-000000000000";
      const [approve, reject, wait, get, getJson] = await Promise.all([
        cli(config, "activity", "approve", asked, "--yes"),
        cli(config, "activity", "reject", asked, "--yes"),
        cli(config, "activity", "wait", asked, "--timeout", "5s"),
        cli(config, "activity", "get", asked),
        cli(config, "activity", "get", asked, "-o", "json"),
      ]);
      for (const r of [approve, reject]) {
        expect(r.code).toBe(1);
        expect(r.stdout).toBe("");
        expect(lines(r.stderr)).toEqual([
          `tvcwatch: the server answered for activity ${other}, not ${asked}; nothing was voted`,
        ]);
      }
      expect(wait.code).toBe(1);
      expect(lines(wait.stderr)).toEqual([
        `waiting for activity ${asked} (up to 5s, every 2s)`,
        `tvcwatch: the server answered for activity ${other}, not ${asked}`,
      ]);
      for (const r of [get, getJson]) {
        expect(r.code).toBe(1);
        expect(r.stdout).toBe("");
        expect(r.stderr).toBe(
          `tvcwatch: the server answered for activity ${other}, not ${asked}\n`,
        );
      }
      const voted = server.requests.filter((q) => /(approve|reject)_activity$/.test(q.url));
      expect(voted).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("a vote answered with another activity: exit 1, no outcome claimed for it", async () => {
    const server = await scriptedServer((req, res) => {
      const op = req.url.split("/").at(-1);
      if (answeredNames(op, res)) return;
      if (op === "whoami")
        return json(res, 200, {
          organizationId: "org-1",
          organizationName: "Org",
          userId: "u-me",
          username: "me",
        });
      if (op === "get_organization_configs")
        return json(res, 200, { configs: { quorum: { threshold: 1, userIds: ["u-me"] } } });
      if (op === "list_users") return json(res, 200, { users: [userJson("u-me", "me")] });
      if (op === "get_activity") return json(res, 200, { activity: activityJson() });
      json(res, 200, {
        activity: activityJson({ id: "act-9", status: "ACTIVITY_STATUS_COMPLETED" }),
      });
    });
    try {
      const r = await cli(
        await scriptedConfig(server.url),
        "activity",
        "approve",
        "act-1",
        "--yes",
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(lines(r.stderr)).toEqual([
        "tvcwatch: the server answered for activity act-9, not act-1; what the vote did is not known: tvcwatch activity get act-1 shows it",
      ]);
    } finally {
      await server.close();
    }
  });

  it("a quorum and users the API will not show: the vote goes on, a note says what is missing", async () => {
    const server = await scriptedServer((req, res) => {
      const op = req.url.split("/").at(-1);
      if (op === "whoami")
        return json(res, 200, {
          organizationId: "org-1",
          organizationName: "Org",
          userId: "u-me",
          username: "me",
        });
      if (op === "get_activity") return json(res, 200, { activity: activityJson() });
      if (op === "reject_activity")
        return json(res, 200, { activity: activityJson({ status: "ACTIVITY_STATUS_REJECTED" }) });
      json(res, 403, { code: 7, message: "request not authorized" });
    });
    try {
      const r = await cli(await scriptedConfig(server.url), "activity", "reject", "act-1", "--yes");
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("rejected activity act-1: REJECTED\n");
      expect(lines(r.stderr)).toEqual([
        "tvcwatch: root quorum not shown: get_organization_configs: PERMISSION_DENIED (HTTP 403): request not authorized",
        "tvcwatch: names of users, wallets and their accounts, private keys, tags, smart contract interfaces and policies not shown: PERMISSION_DENIED (HTTP 403): request not authorized (list_users, list_wallets, list_private_keys, list_user_tags, list_smart_contract_interfaces, list_policies)",
      ]);
    } finally {
      await server.close();
    }
  });

  it("hostile text from the server (type, names, intent, failure) reaches the terminal escaped", async () => {
    const hostile = "evil\u001b]0;owned\u0007\u001b[2J\u009b31m\u202ename";
    const server = await scriptedServer((req, res) => {
      const op = req.url.split("/").at(-1);
      if (op === "whoami")
        return json(res, 200, {
          organizationId: "org-1",
          organizationName: hostile,
          userId: "u-me",
          username: hostile,
        });
      if (op === "get_organization_configs")
        return json(res, 200, { configs: { quorum: { threshold: 2, userIds: ["u-me", "u-x"] } } });
      if (op === "list_users")
        return json(res, 200, { users: [userJson("u-me", hostile), userJson("u-x", hostile)] });
      const bad = activityJson({
        id: `act-${hostile}`,
        type: `ACTIVITY_TYPE_${hostile}`,
        status: "ACTIVITY_STATUS_FAILED",
        intent: { someIntent: { [hostile]: hostile } },
        failure: { code: 7, message: hostile },
        votes: [
          {
            id: "v1",
            userId: "u-x",
            user: userJson("u-x", hostile),
            activityId: "act-1",
            selection: "VOTE_SELECTION_APPROVED",
            message: hostile,
            publicKey: "02ab",
            signature: "30",
            scheme: "SIGNATURE_SCHEME_TK_API_P256",
            createdAt: { seconds: "1790000000", nanos: "0" },
          },
        ],
      });
      if (op === "get_activity") return json(res, 200, { activity: bad });
      if (op === "list_activities") return json(res, 200, { activities: [bad] });
      json(res, 404, { code: 5, message: hostile });
    });
    try {
      const config = await scriptedConfig(server.url);
      // The ID asked for is the one the server answers with (hostile, as an argument may be).
      const runs = await Promise.all([
        cli(config, "activity", "get", `act-${hostile}`),
        cli(config, "activity", "list"),
        cli(config, "activity", "list", "-o", "json"),
        cli(config, "activity", "wait", `act-${hostile}`),
        cli(config, "activity", "approve", `act-${hostile}`, "--yes"),
      ]);
      for (const r of runs) {
        expect(`${r.stdout}${r.stderr}`).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
        expect(`${r.stdout}${r.stderr}`).toMatch(/\\x1b|\\u001b/);
      }
      expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 1, 1]);
    } finally {
      await server.close();
    }
  });
});

describe("ids as the dashboard shows them: a prefix of 8 characters or more", () => {
  it("get, approve and wait take the first 8 characters; the vote names the whole ID and fingerprint", {
    timeout: 60_000,
  }, async () => {
    const { id, fingerprint } = await submitFeature();
    const prefix = id.slice(0, 8);
    const got = await cli(lead, "activity", "get", prefix);
    expect(got.code).toBe(0);
    expect(got.stdout).toContain(`  activity     ${id}\n`);
    expect(got.stdout).toContain(`  fingerprint  ${fingerprint}\n`);
    const json = await cli(lead, "activity", "get", prefix, "-o", "json");
    expect(JSON.parse(json.stdout).activity.id).toBe(id);
    const approved = await cli(lead, "activity", "approve", id.slice(0, 13), "--yes");
    expect(approved.code).toBe(0);
    expect(lines(approved.stderr)).toEqual([
      `activity ${id.slice(0, 13)} is ${id}, fingerprint ${fingerprint}`,
    ]);
    expect(approved.stdout).toBe(`approved activity ${id}: COMPLETED\n`);
    expect((await cli(demo, "activity", "wait", prefix.toUpperCase())).code).toBe(0);
  });

  it("fewer than 8 characters: a usage error saying so; a prefix nothing begins with: exit 1", async () => {
    const short = await cli(lead, "activity", "get", "a34ca6");
    expect(short.code).toBe(2);
    expect(short.stderr).toBe(
      "tvcwatch: activity a34ca6: give its whole ID, or at least 8 of its first characters (as the dashboard shows it)\n",
    );
    const none = await cli(lead, "activity", "approve", "00000000-00", "--yes");
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(
      /^tvcwatch: no activity ID begins with 00000000-00 among the organization's \d+ activities \(tvcwatch activity list shows them\)\n$/,
    );
  });

  it("an ambiguous prefix exits 1 and lists the candidates; nothing is voted; pages are bounded", async () => {
    const ids = ["a34ca61b-0000-4000-8000-000000000001", "a34ca61b-9999-4000-8000-000000000002"];
    let pages = 0;
    const server = await scriptedServer((req, res) => {
      const op = req.url.split("/").at(-1);
      if (op === "list_activities") {
        pages += 1;
        // Full pages without end: the search stops at its bound. The first page has the two.
        const first = JSON.parse(req.body).paginationOptions?.after === undefined;
        const page = Array.from({ length: 100 }, (_, i) =>
          activityJson({
            id: `0000${String(pages).padStart(4, "0")}-0000-4000-8000-${String(i).padStart(12, "0")}`,
          }),
        );
        if (first) page.splice(0, 2, ...ids.map((id) => activityJson({ id })));
        return json(res, 200, { activities: page });
      }
      json(res, 404, { code: 5, message: "no such activity here" });
    });
    try {
      const config = await scriptedConfig(server.url);
      const r = await cli(config, "activity", "approve", "a34ca61b", "--yes");
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      const said = lines(r.stderr);
      expect(said[0]).toMatch(/^ID +STATUS +TYPE/);
      expect(said.slice(1, 3).map((l) => l.split(/\s+/)[0])).toEqual(ids);
      expect(said.at(-1)).toBe(
        "tvcwatch: 2 activities have an ID beginning a34ca61b (listed above): give more of the ID",
      );
      expect(pages).toBe(10);
      const voted = server.requests.filter((q) => /(approve|reject)_activity$/.test(q.url));
      expect(voted).toEqual([]);
      const unique = await cli(config, "activity", "get", "a34ca61b-9", "-o", "json");
      // Resolved from the listing, then read whole by its ID (this server then says NOT_FOUND).
      expect(unique.stderr).toMatch(/^tvcwatch: get_activity: NOT_FOUND/);
      const asked = server.requests.filter((q) => q.url.endsWith("get_activity"));
      expect(asked.map((q) => JSON.parse(q.body).activityId)).toEqual([ids[1]]);
    } finally {
      await server.close();
    }
  });
});

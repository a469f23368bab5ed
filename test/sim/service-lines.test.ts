import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { timestampMs } from "../../src/activity/activity-fields.js";
import { TurnkeyClient } from "../../src/api/client.js";
import { startSimulator } from "../../src/sim/server.js";

/** A clock the test moves by hand. */
function manualClock(start: number) {
  const c = { t: start, now: () => c.t, monotonic: () => c.t };
  return c;
}

const START = 1_790_000_000_000;

async function open(seed: number, scenario?: "incident") {
  const clock = manualClock(START);
  const sim = await startSimulator({ port: 0, seed, clock, logRate: 5, scenario });
  const cfg = sim.config;
  const client = new TurnkeyClient({
    baseUrl: cfg.baseUrl,
    organizationId: cfg.organizationId,
    apiKey: { publicKey: cfg.apiPublicKey, privateKey: cfg.apiPrivateKey },
    clock,
    retries: 0,
  });
  const logs = async () =>
    (await client.call("get_tvc_deployment_debug_logs", { deploymentId: cfg.deploymentId }))
      .entries;
  return { sim, clock, client, logs };
}

let a: Awaited<ReturnType<typeof open>>;
beforeAll(async () => {
  a = await open(7);
  // Logs read every few seconds over three minutes, as the dashboard reads them.
  for (let i = 0; i < 60; i++) {
    a.clock.t += 3_000;
    await a.logs();
  }
});
afterAll(() => a.sim.close());

describe("the services' lines name the ids the side panes know", () => {
  it("mentions each activity the queue creates, by its full id, at its creation time", async () => {
    const entries = await a.logs();
    const created = (
      await a.client.call("list_activities", { paginationOptions: { limit: "100" } })
    ).activities.filter((x) => (timestampMs(x.createdAt) ?? 0) >= START);
    expect(created.length).toBeGreaterThan(5);
    let timed = 0;
    for (const activity of created) {
      const line = entries.find(
        (e) =>
          e.line.content.includes(` activity ${activity.id} `) && / received$/.test(e.line.content),
      );
      expect(line?.line.content, activity.id).toBe(
        `INFO  signer: activity ${activity.id} ${activity.type} received`,
      );
      if (!line?.line.ts) continue;
      timed++;
      const at = Number(line.line.ts.seconds) * 1000 + Number(line.line.ts.nanos) / 1e6;
      expect(at).toBe(timestampMs(activity.createdAt));
    }
    expect(timed).toBeGreaterThan(created.length / 2);
    // The outcome is logged too: a policy's allow or deny, or the wait for the root quorum.
    const decided = entries.filter((e) =>
      /^(INFO {2}policy: activity \S+ allowed|WARN {2}policy: activity \S+ \S+ denied|INFO {2}signer: activity \S+ \S+ awaiting consensus \(1 of \d approvals\))/.test(
        e.line.content,
      ),
    );
    expect(decided.length).toBeGreaterThan(3);
    // A signing or a send is allowed by the policy that allows signing, by its name.
    const typeOf = new Map(created.map((x) => [x.id, x.type]));
    const allowed = entries
      .map((e) => /^INFO {2}policy: activity (\S+) allowed(.*)$/.exec(e.line.content))
      .filter((m) => m !== null && /SIGN|SEND/.test(typeOf.get(m[1] as string) ?? ""));
    expect(allowed.length).toBeGreaterThan(0);
    for (const m of allowed) expect(m?.[2]).toBe(' by policy "ci-deployer signs with hot keys"');
  });

  it("mentions Solana transactions by their signatures when they confirm", async () => {
    const entries = await a.logs();
    const address = a.sim.config.solanaAddresses;
    const signatures: string[] = [];
    for (const addr of address) {
      const txs = (
        await a.client.call("list_sol_transaction_history", {
          address: addr,
          caip2: "solana:devnet",
        })
      ).transactions;
      for (const t of txs) if (Date.parse(t.block.timestamp) >= START) signatures.push(t.signature);
    }
    expect(signatures.length).toBeGreaterThan(2);
    for (const sig of signatures) {
      expect(
        entries.some((e) => e.line.content.startsWith(`INFO  ledger: solana transaction ${sig} `)),
      ).toBe(true);
    }
  });

  it("mentions each email event by its id, with its message and recipient", async () => {
    const entries = await a.logs();
    const events = [];
    for (const email of a.sim.config.emails)
      events.push(
        ...(await a.client.call("list_email_events", { email })).emailEvents.filter(
          (e) => Number(e.timestamp) >= START,
        ),
      );
    expect(new Set(events.map((e) => e.eventType)).size).toBeGreaterThan(1);
    for (const e of events) {
      expect(
        entries.some(
          (x) =>
            x.line.content ===
            `INFO  mailer: email event ${e.id} ${e.eventType} of message ${e.messageId} to ${e.toAddress}`,
        ),
        e.id,
      ).toBe(true);
    }
  });

  it("mentions each vote on an activity by its id: the submitter's, and one cast by approve_activity", async () => {
    const b = await open(7);
    try {
      for (let i = 0; i < 40; i++) {
        b.clock.t += 3_000;
        await b.logs();
      }
      const waiting = (
        await b.client.call("list_activities", {
          filterByStatus: ["ACTIVITY_STATUS_CONSENSUS_NEEDED"],
          paginationOptions: { limit: "100" },
        })
      ).activities.filter((x) => (timestampMs(x.createdAt) ?? 0) >= START);
      const voted = waiting.find((x) => x.votes.length > 0);
      if (!voted) throw new Error("no activity awaits consensus with the submitter's vote");
      const approved = (await b.client.call("approve_activity", { fingerprint: voted.fingerprint }))
        .activity;
      b.clock.t += 3_000;
      const entries = await b.logs();
      expect(approved.votes).toHaveLength(2);
      for (const v of approved.votes) {
        expect(
          entries.some(
            (x) =>
              x.line.content ===
              `INFO  signer: vote ${v.id} by ${v.user?.userName} approves activity ${voted.id} ${voted.type}`,
          ),
          v.id,
        ).toBe(true);
      }
    } finally {
      b.sim.close();
    }
  });

  it("are the same for a seed however the logs are read, and print no error", async () => {
    const b = await open(7);
    try {
      b.clock.t += 180_000;
      const once = (await b.logs()).map((e) => `${e.replicaLabel} ${e.line.content}`);
      const stepped = (await a.logs()).map((e) => `${e.replicaLabel} ${e.line.content}`);
      expect(once).toEqual(stepped);
      const services = once.filter((l) =>
        / (signer|policy|ledger|mailer): (activity|solana|vote|email) /.test(l),
      );
      expect(services.length).toBeGreaterThan(10);
      expect(services.filter((l) => l.includes(" ERROR "))).toEqual([]);
    } finally {
      b.sim.close();
    }
  });
});

/**
 * The follow-set (src/tail/follow-set/follow-set.ts) over fake deployments, on time that moves
 * only when the test moves it: labels as the set changes, the first polls together and the later
 * ones spread, one request limit over the polls and the relists, the cap at a relist, the wait
 * for the first answers, one deployment's failure leaving the others be, and stop.
 */
import { describe, expect, it } from "vitest";
import { TurnkeyApiError } from "../../../src/api/errors.js";
import type { DeploymentDescription } from "../../../src/logs/model/deployment-labels.js";
import { FollowSet, type FollowSetOptions } from "../../../src/tail/follow-set/follow-set.js";
import type {
  FollowMember,
  FollowSetListener,
} from "../../../src/tail/follow-set/follow-set-listener.js";
import type { FetchLogs } from "../../../src/tail/follower.js";
import { RequestLimit } from "../../../src/tail/request-limit.js";
import { ManualTime, settle } from "../../helpers/manual-time.js";
import { responseMeta } from "../../helpers/response-meta.js";

const INTERVAL = 2000;

/** Deployments that answer with one new line a poll, unless held or made to fail. */
class FakeDeployments {
  readonly calls: { id: string; at: number }[] = [];
  inFlight = 0;
  mostInFlight = 0;
  readonly failing = new Map<string, Error>();
  /** Deployments whose answers wait for `release`. */
  readonly held = new Set<string>();
  private readonly waiting = new Map<string, (() => void)[]>();
  private n = 0;

  constructor(private readonly time: ManualTime) {}

  fetchFor(id: string): FetchLogs {
    return async (_request, { signal }) => {
      this.calls.push({ id, at: this.time.mono });
      this.inFlight += 1;
      this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
      try {
        if (this.held.has(id)) {
          // Held until released, or the request is aborted (as a fetch is).
          await new Promise<void>((resolve, reject) => {
            this.waiting.set(id, [...(this.waiting.get(id) ?? []), resolve]);
            signal?.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
          });
        }
        const failure = this.failing.get(id);
        if (failure) throw failure;
        const ms = this.time.clock.now();
        this.n += 1;
        const entry = {
          replicaLabel: "replica 1/1",
          line: {
            content: `${id} line ${this.n}`,
            ts: { seconds: String(Math.floor(ms / 1000)), nanos: String((ms % 1000) * 1e6) },
          },
        };
        return {
          data: { entries: [entry] },
          meta: responseMeta({ serverDate: Math.floor(ms / 1000) * 1000 }),
        };
      } finally {
        this.inFlight -= 1;
      }
    };
  }

  /** Lets the deployment's waiting answers go, and answers at once from now on. */
  release(id: string): void {
    this.held.delete(id);
    for (const resolve of this.waiting.get(id) ?? []) resolve();
    this.waiting.delete(id);
  }

  pollsOf(id: string): number[] {
    return this.calls.filter((c) => c.id === id).map((c) => c.at);
  }
}

/** What the listener heard, one line each. */
function recorder(): {
  heard: string[];
  lines: Map<string, string[]>;
  listener: FollowSetListener;
} {
  const heard: string[] = [];
  const lines = new Map<string, string[]>();
  const listener: FollowSetListener = {
    onAdded: (m) => heard.push(`added ${m.deploymentId} as ${m.label}`),
    onAppeared: (m) => heard.push(`appeared ${m.deploymentId} as ${m.label}`),
    onGone: (m) => heard.push(`gone ${m.deploymentId} (was ${m.label})`),
    onLeftOut: (line) => heard.push(`left out: ${line}`),
    onFailed: (m, err) => heard.push(`failed ${m.deploymentId}: ${err.message}`),
    onRelistFailed: (err) => heard.push(`relist failed: ${(err as Error).message}`),
    onBatch: (m, events) => {
      for (const e of events)
        if (e.kind === "line") lines.set(m.label, [...(lines.get(m.label) ?? []), e.content]);
    },
  };
  return { heard, lines, listener };
}

function setUp(
  ids: string[],
  options: Partial<FollowSetOptions> = {},
  listener: FollowSetListener = {},
) {
  const time = new ManualTime();
  const fake = new FakeDeployments(time);
  const limit = options.limit ?? new RequestLimit(4);
  const set = new FollowSet({
    followerOptions: (id) => ({
      fetchLogs: fake.fetchFor(id),
      clock: time.clock,
      sleep: time.sleep,
      random: () => 0.5,
      intervalMs: INTERVAL,
      sinceMs: 60_000,
    }),
    intervalMs: INTERVAL,
    limit,
    clock: time.clock,
    sleep: time.sleep,
    ...options,
  });
  set.listen(listener);
  set.add(ids);
  return { time, fake, set, limit };
}

const labels = (members: readonly FollowMember[]) =>
  members.map((m) => `${m.deploymentId}=${m.label}`);
const notFound = () =>
  new TurnkeyApiError({ httpStatus: 404, grpcCode: 5, message: "no such deployment" });

describe("a follow-set's deployments and their labels", () => {
  it("labels by the shortest unique prefix, anew as deployments are added and removed", async () => {
    const { heard, lines, listener } = recorder();
    const { time, set } = setUp(["9463b164-aaaa", "b4f9e00e-cccc"], {}, listener);
    expect(labels(set.members())).toEqual(["9463b164-aaaa=9463b1", "b4f9e00e-cccc=b4f9e0"]);
    let changes = 0;
    set.subscribe(() => changes++);
    // One already followed is passed over.
    expect(set.add(["b4f9e00e-cccc"])).toEqual([]);
    const [added] = set.add(["9463b1ff-bbbb"]);
    expect(added?.label).toBe("9463b1f");
    expect(labels(set.members())).toEqual([
      "9463b164-aaaa=9463b16",
      "b4f9e00e-cccc=b4f9e0",
      "9463b1ff-bbbb=9463b1f",
    ]);
    expect(set.labelOf("9463b164-aaaa")).toBe("9463b16");
    expect(changes).toBeGreaterThan(0);
    expect(heard).toEqual([
      "added 9463b164-aaaa as 9463b1",
      "added b4f9e00e-cccc as b4f9e0",
      "added 9463b1ff-bbbb as 9463b1f",
    ]);
    set.start();
    await time.advance(0);
    // A batch carries its deployment's label as it is now.
    expect([...lines.keys()].sort()).toEqual(["9463b16", "9463b1f", "b4f9e0"]);
    const gone = set.remove("9463b1ff-bbbb");
    expect(gone?.label).toBe("9463b1f");
    expect(labels(set.members())).toEqual(["9463b164-aaaa=9463b1", "b4f9e00e-cccc=b4f9e0"]);
    await time.advance(0);
    // Its follower stopped; the others go on.
    expect(gone?.follower.getState().phase).toBe("stopped");
    await time.advance(10_000);
    expect(lines.get("9463b1")?.length).toBeGreaterThan(2);
    expect(lines.get("9463b1f")).toHaveLength(1);
    await set.stop();
  });
});

describe("a follow-set's deployments described", () => {
  it("labels them with their version and role once described; the first lines wait for it", async () => {
    const asked: string[][] = [];
    const slots: RequestLimit[] = [];
    let answer: (found: Map<string, DeploymentDescription>) => void = () => {};
    const { time, fake, set, limit } = setUp(["9463b164-aaaa", "b4f9e00e-cccc"], {
      describe: async (ids, _signal, limit) => {
        asked.push([...ids]);
        slots.push(limit);
        return new Promise((resolve) => {
          answer = resolve;
        });
      },
    });
    expect(asked).toEqual([["9463b164-aaaa", "b4f9e00e-cccc"]]);
    // Its requests take the set's own slots.
    expect(slots).toEqual([limit]);
    expect(labels(set.members())).toEqual(["9463b164-aaaa=9463b1", "b4f9e00e-cccc=b4f9e0"]);
    const heard = recorder();
    set.listen(heard.listener);
    set.start();
    await time.advance(0);
    // Not polled before they are described (so their first lines carry the labels), nor ready.
    expect(fake.calls).toEqual([]);
    expect(set.firstAnswersIn()).toBe(false);
    answer(
      new Map<string, DeploymentDescription>([
        ["9463b164-aaaa", { version: "0.7.2", role: "live" }],
        ["b4f9e00e-cccc", { version: "0.8.0 rc 1", role: "canary" }],
      ]),
    );
    await time.advance(0);
    expect(set.firstAnswersIn()).toBe(true);
    expect([...heard.lines.keys()].sort()).toEqual([
      "9463b1 0.7.2 live",
      "b4f9e0 0.8.0_rc_1 canary",
    ]);
    expect(labels(set.members())).toEqual([
      "9463b164-aaaa=9463b1 0.7.2 live",
      "b4f9e00e-cccc=b4f9e0 0.8.0_rc_1 canary",
    ]);
    expect(set.labelOf("b4f9e00e-cccc")).toBe("b4f9e0 0.8.0_rc_1 canary");
    expect(set.descriptionOf("9463b164-aaaa")).toEqual({ version: "0.7.2", role: "live" });
    // One taken on later is described on its own; one the records say nothing of keeps its id.
    set.add(["c0ffee00-dddd"]);
    expect(asked.at(-1)).toEqual(["c0ffee00-dddd"]);
    answer(new Map());
    await time.advance(0);
    expect(set.labelOf("c0ffee00-dddd")).toBe("c0ffee");
    await set.stop();
  });

  it("the first polls wait 10 s at most for descriptions that do not come", async () => {
    const { time, fake, set } = setUp(["a1b2c3d4"], { describe: () => new Promise(() => {}) });
    set.start();
    await time.advance(9_999);
    expect(fake.calls).toEqual([]);
    await time.advance(2);
    expect(fake.pollsOf("a1b2c3d4")).toHaveLength(1);
    expect(set.labelOf("a1b2c3d4")).toBe("a1b2c3");
    await set.stop();
  });

  it("a description that fails leaves the labels as they were, and the first lines go", async () => {
    const { time, set } = setUp(["a1b2c3d4"], {
      describe: async () => {
        throw new Error("list_tvc_apps: PERMISSION_DENIED");
      },
    });
    set.start();
    await time.advance(0);
    expect(set.firstAnswersIn()).toBe(true);
    expect(set.labelOf("a1b2c3d4")).toBe("a1b2c3");
    await set.stop();
  });
});

describe("a follow-set's polls", () => {
  it("sends the first polls together and spreads the later ones over the interval", async () => {
    const { time, fake, set } = setUp(["a", "b", "c", "d"]);
    set.start();
    await time.advance(0);
    expect(fake.calls).toEqual(["a", "b", "c", "d"].map((id) => ({ id, at: 0 })));
    await time.advance(INTERVAL * 3);
    const second = ["a", "b", "c", "d"].map((id) => fake.pollsOf(id)[1] as number);
    // Each a quarter of the interval after the one before.
    expect(second.map((at) => at - (second[0] as number))).toEqual([0, 500, 1000, 1500]);
    await set.stop();
  });

  it("holds the polls of every deployment and the relists to one limit", async () => {
    let listing = false;
    let listed = 0;
    const { time, fake, set, limit } = setUp(["a", "b", "c"], {
      limit: new RequestLimit(2),
      relisting: {
        list: async (_signal, slots) => {
          listing = true;
          const release = await slots.acquire();
          try {
            listed += 1;
            return ["a", "b", "c"];
          } finally {
            release();
          }
        },
      },
    });
    for (const id of ["a", "b", "c"]) fake.held.add(id);
    set.start();
    await time.advance(0);
    expect(fake.calls.map((c) => c.id)).toEqual(["a", "b"]);
    expect(limit.inFlight()).toBe(2);
    const relisted = set.relist();
    await time.advance(0);
    expect(listing).toBe(true);
    expect(listed).toBe(0);
    // A slot set free goes to the poll that waited first, then to the listing.
    fake.release("a");
    await time.advance(0);
    expect(fake.calls.map((c) => c.id)).toEqual(["a", "b", "c"]);
    expect(listed).toBe(0);
    fake.release("b");
    await relisted;
    expect(listed).toBe(1);
    fake.release("c");
    await time.advance(INTERVAL * 4);
    expect(fake.mostInFlight).toBe(2);
    await set.stop();
    expect(limit.inFlight()).toBe(0);
  });

  it("reads one window of each without -f, and lists nothing again", async () => {
    let listed = 0;
    const { time, fake, set } = setUp(["a", "b"], {
      follow: false,
      relisting: {
        list: async () => {
          listed += 1;
          return ["a", "b", "c"];
        },
      },
    });
    set.start();
    await set.done();
    await time.advance(60_000);
    expect(fake.calls.map((c) => c.id)).toEqual(["a", "b"]);
    expect(listed).toBe(0);
    expect(set.getState().phase).toBe("stopped");
  });
});

describe("a follow-set relisting --app / --all", () => {
  it("follows what appeared within --max-deployments, lets go what went away, and says what is left out when it changes", async () => {
    const { heard, listener } = recorder();
    const listings = [
      ["a", "b", "c"],
      ["b", "c", "d", "e"],
      ["b", "c", "d", "e"],
    ];
    let turn = 0;
    const { time, fake, set } = setUp(
      ["a", "b"],
      {
        relisting: {
          list: async () => listings[Math.min(turn++, listings.length - 1)] as string[],
          everyMs: 5000,
          maxDeployments: 2,
          atStart: { listed: 3, leftOut: 1 },
        },
      },
      listener,
    );
    heard.length = 0;
    set.start();
    expect(heard).toEqual([
      "left out: following 2 of 3 debug-mode deployments (by app, live first, newest first): 1 left out by --max-deployments 2; raise it to follow more",
    ]);
    // The first relist changes nothing: nothing said.
    await time.advance(5000);
    expect(turn).toBe(1);
    expect(heard).toHaveLength(1);
    await time.advance(5000);
    expect(turn).toBe(2);
    expect(heard.slice(1)).toEqual([
      "gone a (was a)",
      "left out: following 2 of 4 debug-mode deployments (by app, live first, newest first): 2 left out by --max-deployments 2; raise it to follow more",
      "added c as c",
      "appeared c as c",
    ]);
    expect(set.members().map((m) => m.deploymentId)).toEqual(["b", "c"]);
    const goneAt = time.mono;
    await time.advance(5000);
    expect(turn).toBe(3);
    expect(heard).toHaveLength(5);
    // The one that appeared is polled at once; the one let go no more.
    expect(fake.pollsOf("c")[0]).toBe(goneAt);
    expect(fake.pollsOf("a").every((at) => at <= goneAt)).toBe(true);
    await set.stop();
  });

  it("says a failed listing and follows on; the next one is heard", async () => {
    const { heard, listener } = recorder();
    let fail = true;
    const { time, fake, set } = setUp(
      ["a"],
      {
        relisting: {
          list: async () => {
            if (fail) throw new Error("HTTP 503");
            return ["a", "b"];
          },
          everyMs: 5000,
        },
      },
      listener,
    );
    set.start();
    await time.advance(5000);
    expect(heard.at(-1)).toBe("relist failed: HTTP 503");
    const before = fake.pollsOf("a").length;
    fail = false;
    await time.advance(5000);
    expect(fake.pollsOf("a").length).toBeGreaterThan(before);
    expect(heard.at(-1)).toBe("appeared b as b");
    await set.stop();
  });

  it("readies a deployment that appeared before its first poll", async () => {
    let ready: (() => void) | undefined;
    const { time, fake, set } = setUp(["a"], {
      relisting: { list: async () => ["a", "b"], everyMs: 5000 },
      prepare: () => new Promise<void>((resolve) => (ready = resolve)),
    });
    set.start();
    await time.advance(5000);
    expect(set.members().map((m) => m.deploymentId)).toEqual(["a", "b"]);
    expect(fake.pollsOf("b")).toEqual([]);
    ready?.();
    await time.advance(0);
    expect(fake.pollsOf("b")).toEqual([5000]);
    await set.stop();
  });
});

describe("a follow-set's first answers", () => {
  it("waits for every deployment of the start to answer, 10 s at most", async () => {
    const { time, fake, set } = setUp(["a", "b"]);
    fake.held.add("b");
    expect(set.firstAnswersIn()).toBe(false);
    set.start();
    await time.advance(9000);
    expect(set.firstAnswersIn()).toBe(false);
    await time.advance(1001);
    expect(set.firstAnswersIn()).toBe(true);
    await set.stop();
  });

  it("is over once each has answered, failed or gone; one taken on later is not waited for", async () => {
    const { time, fake, set } = setUp(["a", "b", "c"]);
    for (const id of ["a", "b", "c"]) fake.held.add(id);
    fake.failing.set("b", notFound());
    set.start();
    await time.advance(0);
    fake.release("a");
    fake.release("b");
    await time.advance(0);
    expect(set.firstAnswersIn()).toBe(false);
    set.remove("c");
    expect(set.firstAnswersIn()).toBe(true);
    fake.held.add("d");
    set.add(["d"]);
    await time.advance(0);
    expect(set.firstAnswersIn()).toBe(true);
    await set.stop();
  });
});

describe("a follow-set's failures and stop", () => {
  it("a failure no retry helps ends that deployment's follow only", async () => {
    const { heard, lines, listener } = recorder();
    const { time, fake, set } = setUp(["a", "b"], {}, listener);
    fake.failing.set("b", notFound());
    set.start();
    let done = false;
    void set.done().then(() => (done = true));
    await time.advance(0);
    expect(heard.filter((h) => h.startsWith("failed"))).toEqual([
      "failed b: NOT_FOUND (HTTP 404): no such deployment",
    ]);
    await time.advance(INTERVAL * 5);
    expect(fake.pollsOf("b")).toHaveLength(1);
    expect(fake.pollsOf("a").length).toBeGreaterThan(4);
    expect(lines.get("a")?.length).toBeGreaterThan(4);
    // The set shows its worst member, named by its label.
    expect(set.getState().phase).toBe("failed");
    expect(set.getState().lastError).toMatch(/^b: /);
    expect(done).toBe(false);
    await set.stop();
    await set.done();
  });

  it("a transient failure is retried: no failure said, the set goes on", async () => {
    const { heard, listener } = recorder();
    const { time, fake, set } = setUp(["a"], {}, listener);
    fake.failing.set("a", new TurnkeyApiError({ httpStatus: 503, message: "unavailable" }));
    set.start();
    await time.advance(0);
    expect(set.getState().phase).toBe("retrying");
    fake.failing.delete("a");
    await time.advance(INTERVAL * 3);
    expect(set.getState().phase).toBe("live");
    expect(heard.some((h) => h.startsWith("failed"))).toBe(false);
    await set.stop();
  });

  it("stop ends every follower and the relists, and done resolves", async () => {
    let listed = 0;
    const { time, fake, set } = setUp(["a", "b"], {
      relisting: {
        list: async () => {
          listed += 1;
          return ["a", "b"];
        },
        everyMs: 5000,
      },
    });
    set.start();
    await time.advance(5000);
    expect(listed).toBe(1);
    await set.stop();
    await set.done();
    const polls = fake.calls.length;
    expect(set.members().map((m) => m.follower.getState().phase)).toEqual(["stopped", "stopped"]);
    expect(time.sleeping()).toBe(0);
    await time.advance(60_000);
    await settle();
    expect(fake.calls.length).toBe(polls);
    expect(listed).toBe(1);
  });
});

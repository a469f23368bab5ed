/**
 * The wait loop of `tvcwatch activity wait`, without a server: each change told once, the end
 * statuses, the deadline, and which failed polls it rides out (network, 5xx) or ends on.
 */
import { describe, expect, it } from "vitest";
import { NetworkError, TurnkeyApiError } from "../../src/api/errors.js";
import type { Activity } from "../../src/api/schemas.js";
import {
  type WaitDeps,
  waitForActivity,
} from "../../src/cli/commands/activity/wait-for-activity.js";

const at = (status: string, votes = 0) =>
  ({ id: "a1", status, votes: Array.from({ length: votes }) }) as unknown as Activity;

/** Deps answering polls from a script (an Activity or an error each), recording what is said. */
function scripted(script: (Activity | Error)[], deadline?: AbortController) {
  const said: string[] = [];
  let polls = 0;
  const deps: WaitDeps = {
    getActivity: async () => {
      const next = script[Math.min(polls, script.length - 1)];
      polls += 1;
      if (polls >= script.length && deadline) deadline.abort(new Error("deadline"));
      if (next instanceof Error) throw next;
      return next as Activity;
    },
    sleep: async (_ms, signal) => {
      if (signal.aborted) throw signal.reason;
    },
    describe: (a) => `${a.status.replace("ACTIVITY_STATUS_", "")} ${a.votes.length} votes`,
    report: (line) => said.push(line),
  };
  return { deps, said, polls: () => polls };
}

describe("waiting for an activity", () => {
  it("tells each change once and ends on COMPLETED, FAILED or REJECTED", async () => {
    for (const [end, kind] of [
      ["ACTIVITY_STATUS_COMPLETED", "completed"],
      ["ACTIVITY_STATUS_FAILED", "failed"],
      ["ACTIVITY_STATUS_REJECTED", "rejected"],
    ] as const) {
      const { deps, said } = scripted([
        at("ACTIVITY_STATUS_CONSENSUS_NEEDED", 1),
        at("ACTIVITY_STATUS_CONSENSUS_NEEDED", 1),
        at("ACTIVITY_STATUS_CONSENSUS_NEEDED", 2),
        at(end, 2),
      ]);
      const outcome = await waitForActivity(deps, 10, new AbortController().signal);
      expect(outcome.kind).toBe(kind);
      expect(said).toEqual([
        "CONSENSUS_NEEDED 1 votes",
        "CONSENSUS_NEEDED 2 votes",
        `${end.replace("ACTIVITY_STATUS_", "")} 2 votes`,
      ]);
    }
  });

  it("rides out a network failure and a 503, saying each once, then tells the status again", async () => {
    const down = new NetworkError("get_activity: connection refused by 127.0.0.1:1", 5);
    const busy = new TurnkeyApiError({ httpStatus: 503, message: "busy" });
    const { deps, said } = scripted([
      at("ACTIVITY_STATUS_CONSENSUS_NEEDED", 1),
      down,
      down,
      busy,
      at("ACTIVITY_STATUS_CONSENSUS_NEEDED", 1),
      at("ACTIVITY_STATUS_COMPLETED", 2),
    ]);
    expect((await waitForActivity(deps, 10, new AbortController().signal)).kind).toBe("completed");
    expect(said).toEqual([
      "CONSENSUS_NEEDED 1 votes",
      "poll failed: get_activity: connection refused by 127.0.0.1:1; still waiting",
      "poll failed: busy; still waiting",
      "CONSENSUS_NEEDED 1 votes",
      "COMPLETED 2 votes",
    ]);
  });

  it("ends on an error no other poll can mend: not found, a refused key, a permanent failure", async () => {
    const errors = [
      new TurnkeyApiError({ httpStatus: 404, grpcCode: 5, message: "activity a1 not found" }),
      new TurnkeyApiError({ httpStatus: 401, grpcCode: 16, message: "expired api key" }),
      new NetworkError(
        "get_activity: TLS certificate of x not trusted",
        1,
        undefined,
        "tls-certificate",
      ),
    ];
    for (const err of errors) {
      const { deps } = scripted([at("ACTIVITY_STATUS_CONSENSUS_NEEDED", 1), err]);
      await expect(waitForActivity(deps, 10, new AbortController().signal)).rejects.toBe(err);
    }
  });

  it("at the deadline: a timeout with the last status read and the last poll's failure", async () => {
    const deadline = new AbortController();
    const down = new NetworkError("get_activity: connection refused by 127.0.0.1:1", 5);
    const { deps } = scripted(
      [at("ACTIVITY_STATUS_CONSENSUS_NEEDED", 1), at("ACTIVITY_STATUS_CONSENSUS_NEEDED", 1), down],
      deadline,
    );
    const outcome = await waitForActivity(deps, 10, deadline.signal);
    expect(outcome).toMatchObject({
      kind: "timeout",
      activity: { status: "ACTIVITY_STATUS_CONSENSUS_NEEDED" },
      lastError: "get_activity: connection refused by 127.0.0.1:1",
    });
  });
});

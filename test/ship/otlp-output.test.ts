/**
 * `tail -o otlp` with --checkpoint (src/ship/otlp-output.ts) against a loopback
 * collector: one flush runs at a time, so batches that come while the collector is down wait
 * for it and are recorded by the latest snapshot once it takes lines, not one by one.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { TurnkeyClient } from "../../src/api/client.js";
import type { LogLine } from "../../src/logs/model/log-line.js";
import { openOtlpOutput } from "../../src/ship/otlp-output.js";
import { type OtlpReceiver, startOtlpReceiver } from "../helpers/otlp-receiver.js";
import { waitFor } from "../helpers/wait-for.js";

const T0 = 1_790_000_000;

const line = (n: number): LogLine => ({
  kind: "line",
  replicaLabel: "replica 1/1",
  seconds: String(T0 + n),
  nanos: 0,
  sortKey: (T0 + n) * 1000,
  content: `line ${n}`,
  late: false,
});

/** A client that cannot describe the deployment: the resource keeps its id. */
const client = {
  call: async () => {
    throw new Error("not asked in this test");
  },
} as unknown as TurnkeyClient;

let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("openOtlpOutput", () => {
  it("while the collector is down, flushes once at a time and records the latest batch once it is back", async () => {
    receiver = await startOtlpReceiver();
    const said: string[] = [];
    const out = await openOtlpOutput(receiver.url, "org", ["dep"], client, undefined, (l) =>
      said.push(l),
    );
    const recorded: number[] = [];
    receiver.down = true;
    for (let batch = 0; batch < 20; batch++) {
      out.write([line(batch)], () => {});
      out.afterBatch(batch, (b) => recorded.push(b));
    }
    const r = receiver;
    await waitFor(() => r.requests > 0, "the first export");
    r.down = false;
    out.write([line(20)], () => {});
    out.afterBatch(20, (b) => recorded.push(b));
    await out.close();
    // At most the first batch, the latest while it was down, and the last: never one by one.
    expect(recorded.length).toBeLessThanOrEqual(3);
    expect(recorded.at(-1)).toBe(20);
    expect(recorded).toEqual([...recorded].sort((a, b) => a - b));
    const bodies = r.records.map((x) => String(x.body));
    expect(new Set(bodies)).toEqual(new Set(Array.from({ length: 21 }, (_, i) => `line ${i}`)));
    expect(bodies).toHaveLength(21);
  }, 60_000);
});

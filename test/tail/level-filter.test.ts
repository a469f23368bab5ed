import { describe, expect, it } from "vitest";
import { levelFilter } from "../../src/tail/level-filter.js";
import type { LogEvent } from "../../src/tail/log-line.js";

const line = (replicaLabel: string, content: string): LogEvent => ({
  kind: "line",
  replicaLabel,
  seconds: undefined,
  nanos: undefined,
  sortKey: 0,
  content,
  late: false,
});

describe("tail --level", () => {
  it("keeps lines of the level or above, plain and JSON, and an error's frames with it", () => {
    const keep = levelFilter("warn");
    const input = [
      line("r1", "INFO  started"),
      line("r1", "ERROR payment failed"),
      line("r1", "    at Ledger.settle (ledger.js:10)"),
      line("r2", '{"level":"warn","msg":"slow"}'),
      line("r2", '{"level":"debug","msg":"tick"}'),
      line("r2", "    continuation of a debug line"),
      line("r1", "INFO  recovered"),
      line("r1", "    at nothing (only info)"),
    ];
    expect(input.filter(keep).map((e) => (e.kind === "line" ? e.content : ""))).toEqual([
      "ERROR payment failed",
      "    at Ledger.settle (ledger.js:10)",
      '{"level":"warn","msg":"slow"}',
    ]);
  });

  it("leaves out a replica's lines before any level is seen; gap markers always pass", () => {
    const keep = levelFilter("error");
    expect(keep(line("r3", "no level here"))).toBe(false);
    expect(keep({ kind: "gap", from: 0, to: 1, reason: "x", sortKey: 0 })).toBe(true);
  });
});

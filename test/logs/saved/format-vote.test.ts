import { describe, expect, it } from "vitest";
import { detectFormat } from "../../../src/logs/saved/format-vote.js";

const T = "2026-11-18T11:06:40.000000005Z";

describe("telling the format", () => {
  const json = '{"replicaLabel":"replica 1/3","ts":null,"content":"x"}';
  it.each([
    [[json, json, ""], "ndjson"],
    [['{"tvcwatch":{"deploymentId":"d"}}', json], "ndjson"],
    [["[replica 1/3] a", "[9463b1 replica 2/3] b", "--"], "text"],
    [[`${T} [replica 1/3] a`, `${"-".padEnd(T.length)} [replica 1/3] b`], "text"],
    [["# tvcwatch · deployment d · filters: none · no lines · 0 lines"], "text"],
    [["[INFO] not tail", "[main] also not"], "plain"],
    [['{"msg":"another app"}', '{"msg":"again"}'], "plain"],
    [["hello", json], "plain"],
    [[], "plain"],
  ] as const)("%j is %s", (lines, want) => {
    expect(detectFormat(lines)).toBe(want);
  });
});

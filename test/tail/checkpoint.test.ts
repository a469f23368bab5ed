/** What a checkpoint file holds (format 3), and how formats 1 and 2 of an older tvcwatch are read. */
import { describe, expect, it } from "vitest";
import {
  type CheckpointFile,
  parseCheckpoint,
  resumePointOf,
  serializeCheckpoint,
} from "../../src/tail/checkpoint.js";
import { DIGEST_CHARS, digestOf, recordedLineKey } from "../../src/tail/line-identity.js";

const NOW = 1_790_000_000_000;
const parse = (text: string, ids = ["dep"]) => parseCheckpoint(text, ids, 11_000, NOW);

describe("checkpoint files", () => {
  it("reads back what it writes (format 3)", () => {
    const file: CheckpointFile = {
      format: 3,
      deployments: [
        {
          deploymentId: "dep",
          resumeFromMs: NOW - 5000,
          slackMs: 3000,
          clock: "server",
          serverMinusWallMs: 12,
          lines: digestOf("a").repeat(2) + digestOf("b"),
          gap: { fromMs: NOW - 9000, toMs: NOW - 5000 },
        },
      ],
      outputFile: { dev: "2049", ino: "123456789012345678", length: 4096 },
    };
    const read = parse(serializeCheckpoint(file));
    if ("error" in read) throw new Error(read.error);
    expect(read.records.get("dep")).toEqual(file.deployments[0]);
    expect(read.outputFile).toEqual(file.outputFile);
    expect(resumePointOf(read.records.get("dep") as never)).toEqual({
      fromMs: NOW - 5000,
      slackMs: 3000,
      clock: "server",
      serverMinusWallMs: 12,
    });
  });

  it("reads formats 1 and 2 as the version that wrote them resumes: from the newest line less its margin, lines before it dropped", () => {
    const line = { replicaLabel: "replica 1/1", ts: { seconds: "1790", nanos: "5" }, content: "x" };
    const one = parse(
      JSON.stringify({ format: 1, deploymentId: "dep", newest: NOW - 1000, lines: [line, line] }),
    );
    if ("error" in one) throw new Error(one.error);
    const r = one.records.get("dep");
    expect(r?.resumeFromMs).toBe(NOW - 12_000);
    expect(r?.lines).toBe(digestOf(recordedLineKey(line)).repeat(2));
    expect(r?.lines.length).toBe(2 * DIGEST_CHARS);
    expect(resumePointOf(r as never)).toMatchObject({ slackMs: 0, maxSetAside: 0 });
    const two = parse(
      JSON.stringify({
        format: 2,
        deployments: [
          { format: 1, deploymentId: "a", newest: NOW, lines: [] },
          { format: 1, deploymentId: "b", newest: NOW, lines: [line] },
        ],
      }),
      ["a", "b"],
    );
    if ("error" in two) throw new Error(two.error);
    expect([...two.records.keys()]).toEqual(["a", "b"]);
  });

  it("refuses a format 1 record whose newest line was stamped well ahead of this machine's clock, naming the fix", () => {
    const ahead = parse(
      JSON.stringify({ format: 1, deploymentId: "dep", newest: NOW + 365 * 86_400_000, lines: [] }),
    );
    expect(ahead).toEqual({
      error: expect.stringMatching(
        /^was written by an older tvcwatch from a line stamped 2027-\S+, ahead of this machine's clock, so it would skip lines: pass --start-over to set it aside and start from --since, or name another file$/,
      ),
    });
  });

  it("refuses what it cannot use, in one line naming the fix", () => {
    expect(parse("{not json")).toEqual({ error: expect.stringMatching(/not JSON/) });
    expect(parse(JSON.stringify({ format: 4 }))).toEqual({
      error:
        "has format 4, newer than this tvcwatch reads (3): upgrade tvcwatch, or name another file",
    });
    const record = {
      deploymentId: "dep",
      resumeFromMs: NOW,
      slackMs: 3000,
      clock: "server",
      lines: "",
    };
    expect(
      parse(JSON.stringify({ format: 3, deployments: [{ ...record, lines: "abc" }] })),
    ).toEqual({
      error: expect.stringMatching(/its lines are malformed/),
    });
    expect(
      parse(JSON.stringify({ format: 3, deployments: [{ ...record, clock: "moon" }] })),
    ).toEqual({
      error: expect.stringMatching(/fields missing/),
    });
    expect(
      parse(
        JSON.stringify({
          format: 3,
          deployments: [record],
          outputFile: { dev: "1", ino: "x", length: 1 },
        }),
      ),
    ).toEqual({ error: expect.stringMatching(/fields missing/) });
    expect(
      parse(JSON.stringify({ format: 3, deployments: [{ ...record, deploymentId: "other" }] })),
    ).toEqual({
      error: "was written for deployment other, not dep: name another file for this one",
    });
    // Written before the first line: the output file's length, and no record yet.
    const empty = parse(
      JSON.stringify({ format: 3, deployments: [], outputFile: { dev: "1", ino: "2", length: 0 } }),
    );
    expect(empty).toEqual({ records: new Map(), outputFile: { dev: "1", ino: "2", length: 0 } });
  });

  it("refuses numbers no follow writes, naming the field: a point that is no time, an offset of 1e300, a slack past what any follow allows, a gap of no times", () => {
    const record = {
      deploymentId: "dep",
      resumeFromMs: NOW,
      slackMs: 3000,
      clock: "server",
      serverMinusWallMs: 12,
      lines: "",
    };
    const refusal = (patch: Record<string, unknown>) => {
      const read = parse(JSON.stringify({ format: 3, deployments: [{ ...record, ...patch }] }));
      return "error" in read ? read.error : "read";
    };
    const fix = "pass --start-over to set it aside and start from --since, or name another file";
    expect(refusal({ resumeFromMs: -1e300 })).toBe(
      `is not a tvcwatch checkpoint (its resumeFromMs, -1e+300, is no time): ${fix}`,
    );
    expect(refusal({ resumeFromMs: 1e300 })).toMatch(/its resumeFromMs, 1e\+300, is no time/);
    expect(refusal({ serverMinusWallMs: 1e300 })).toBe(
      `is not a tvcwatch checkpoint (its serverMinusWallMs, 1e+300, is no clock offset a server and this machine can have: more than the 7 days the server keeps logs): ${fix}`,
    );
    expect(refusal({ serverMinusWallMs: -8 * 86_400_000 })).toMatch(/its serverMinusWallMs/);
    expect(refusal({ slackMs: 1e12 })).toBe(
      `is not a tvcwatch checkpoint (its slackMs, 1000000000000, is more than a follow allows (32500 ms)): ${fix}`,
    );
    expect(refusal({ gap: { fromMs: -1e300, toMs: NOW } })).toMatch(
      /its gap, -1e\+300, is no time/,
    );
    expect(refusal({ gap: { fromMs: NOW, toMs: NOW - 1 } })).toMatch(/its gap/);
    // What a follow writes at most is read.
    expect(refusal({ slackMs: 32_500, serverMinusWallMs: -7 * 86_400_000 })).toBe("read");
    const legacy = parse(
      JSON.stringify({ format: 1, deploymentId: "dep", newest: -1e300, lines: [] }),
    );
    expect(legacy).toEqual({
      error: `is not a tvcwatch checkpoint (its newest, -1e+300, is no time): ${fix}`,
    });
  });
});

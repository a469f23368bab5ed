/**
 * What the dashboard says of saved logs: the title's files, lines, time range and indexing; the
 * filters a saved view's header restores, in the state and in words; a header's votes read with
 * every field checked.
 */
import { describe, expect, it } from "vitest";
import { readJsonHeader } from "../../../src/logs/saved/saved-header.js";
import type { SavedSummary } from "../../../src/logs/saved/saved-log.js";
import {
  fileNames,
  followedNow,
  headerNotice,
  restoredState,
  savedTitle,
  timeRange,
} from "../../../src/tui/saving/saved-title.js";

const file = (name: string, over: Partial<SavedSummary["files"][number]> = {}) => ({
  name,
  aliases: [] as readonly string[],
  about: undefined as string | undefined,
  format: "ndjson",
  lines: 10,
  unreadable: 0,
  cut: 0,
  passedOver: 0,
  heldBytes: 0,
  dropped: 0,
  complete: true,
  done: true,
  indexedBytes: 100,
  totalBytes: 100,
  ...over,
});

const summary = (over: Partial<SavedSummary> = {}): SavedSummary => ({
  files: [file("a.ndjson")],
  lines: 1234,
  unreadable: 0,
  from: Date.UTC(2026, 10, 27, 5, 0, 1),
  to: Date.UTC(2026, 10, 27, 5, 10, 0),
  complete: true,
  notes: [],
  ...over,
});

describe("the title of saved logs", () => {
  it("names up to three files, then counts the rest", () => {
    expect(fileNames(["a", "b"])).toBe("a, b");
    expect(fileNames(["a", "b", "c", "d", "e"])).toBe("a, b, c +2 more");
  });

  it("says the day once when the range stays within it", () => {
    const d = (h: number, day = 27) => Date.UTC(2026, 10, day, h, 0, 0);
    expect(timeRange(d(5), d(6))).toBe("2026-11-27 05:00:00Z to 06:00:00Z");
    expect(timeRange(d(23), d(1, 28))).toBe("2026-11-27 23:00:00Z to 2026-11-28 01:00:00Z");
  });

  it("counts lines, says the range, how far indexing is, or that lines may still come", () => {
    expect(savedTitle(summary(), false)).toBe(
      "1,234 lines · 2026-11-27 05:00:01Z to 05:10:00Z · a.ndjson",
    );
    const reading = summary({ files: [file("a.ndjson", { done: false })] });
    expect(savedTitle(reading, true)).toMatch(/ · followed · a\.ndjson$/);
    // Followed to its end (a pipe that ended): saved lines again.
    expect(savedTitle(summary(), true)).toMatch(/:00Z · a\.ndjson$/);
    const indexing = summary({
      complete: false,
      files: [file("a.ndjson", { complete: false, indexedBytes: 40, totalBytes: 100 })],
    });
    expect(savedTitle(indexing, true)).toMatch(/ · indexing 40% · a\.ndjson$/);
    expect(savedTitle(summary({ from: undefined, to: undefined, lines: 1 }), false)).toBe(
      "1 line · a.ndjson",
    );
  });

  it("names a followed name once across the files it named", () => {
    const rotated = summary({
      files: [
        file("a.log", { about: "before it was replaced" }),
        file("a.log", { about: "the new file by that name" }),
      ],
    });
    expect(savedTitle(rotated, false)).toMatch(/:00Z · a\.log$/);
  });

  it("says a file named more than once was read once", () => {
    const twice = summary({ files: [file("a.ndjson", { aliases: ["./a.ndjson"] }), file("b")] });
    expect(savedTitle(twice, false)).toMatch(/ · a\.ndjson \(named twice, read once\), b$/);
    const thrice = summary({ files: [file("a.ndjson", { aliases: ["./a.ndjson", "-"] })] });
    expect(savedTitle(thrice, false)).toMatch(/ · a\.ndjson \(named 3 times, read once\)$/);
  });
});

describe("what is followed", () => {
  it("names the file or stream still read, counts several, and is nothing once all ended", () => {
    const stdin = file("standard input", { done: false });
    expect(followedNow(summary({ files: [stdin] }), true)).toBe("standard input");
    expect(followedNow(summary({ files: [stdin, file("b", { done: false })] }), true)).toBe(
      "2 files",
    );
    expect(followedNow(summary({ files: [stdin, file("b")] }), true)).toBe("standard input");
    expect(followedNow(summary(), true)).toBeUndefined();
    // Files read without following are saved lines, while indexed too.
    expect(followedNow(summary({ files: [stdin] }), false)).toBeUndefined();
  });
});

describe("a saved view's header", () => {
  const header = readJsonHeader({
    tvcwatch: {
      deploymentId: "dep-1",
      filters: {
        include: ["timeout", "a|b"],
        exclude: "health",
        where: ["latencyMs > 300"],
        minLevel: "warn",
        context: 2,
        hiddenReplicas: [3],
        onlyDeployment: "9463b1aa",
      },
    },
  });

  it("restores its filters into the dashboard's state and says them", () => {
    if (!header.filters) throw new Error("no filters read");
    expect(restoredState(header.filters)).toEqual({
      include: ["timeout", "a|b"],
      exclude: "health",
      where: ["latencyMs > 300"],
      minLevel: "warn",
      context: 2,
      hiddenReplicas: [3],
      onlyReplica: undefined,
      onlyDeployment: { id: "9463b1aa", label: "9463b1" },
    });
    expect(headerNotice(header)).toBe(
      "the saved view's filters restored: +/timeout/ +/a|b/ -/health/ =[latencyMs > 300] level>=warn context 2 replicas 3 hidden deployment 9463b1aa alone (X clears them)",
    );
  });

  it("restores the replica shown alone (o) and says it, the others hidden by it", () => {
    const alone = readJsonHeader({
      tvcwatch: { filters: { hiddenReplicas: [1], onlyReplica: 2, minLevel: "warn" } },
    });
    if (!alone.filters) throw new Error("no filters read");
    expect(restoredState(alone.filters)).toMatchObject({ onlyReplica: 2, hiddenReplicas: [] });
    expect(headerNotice(alone)).toBe(
      "the saved view's filters restored: level>=warn replica 2 alone (X clears them)",
    );
  });

  it("says what it could not read, and nothing when there is nothing to say", () => {
    const bad = readJsonHeader({ tvcwatch: { filters: { context: -1 } } });
    expect(headerNotice(bad)).toBe(
      "header not read in part: filters.context is not a number of lines from 0 to 10000",
    );
    expect(headerNotice(readJsonHeader({ tvcwatch: { deploymentId: "d" } }))).toBeUndefined();
  });

  it("reads a ticket bundle's votes, every field checked", () => {
    const vote = {
      activityId: "act-1",
      type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
      fingerprint: "fp",
      decision: "reject",
      time: "2026-11-27T05:01:00Z",
    };
    const bundle = (votes: unknown) => readJsonHeader({ tvcwatch: { bundle: true, votes } });
    expect(bundle([vote]).votes).toEqual([vote]);
    expect(readJsonHeader({ tvcwatch: { bundle: true } }).votes).toBeUndefined();
    // Votes are a bundle's: a saved view without `bundle` lists none.
    expect(readJsonHeader({ tvcwatch: { votes: [vote] } }).votes).toBeUndefined();
    expect(bundle("votes").votes).toBeUndefined();
    expect(bundle("votes").problems).toEqual(["votes is not a list of at most 1000"]);
    for (const wrong of [
      { ...vote, decision: "maybe" },
      { ...vote, fingerprint: 7 },
      { ...vote, fingerprint: "" },
      { ...vote, activityId: "" },
      null,
    ]) {
      const h = bundle([vote, wrong]);
      expect(h.votes).toEqual([vote]);
      expect(h.problems).toEqual(["votes: 1 of 2 could not be read"]);
    }
  });
});

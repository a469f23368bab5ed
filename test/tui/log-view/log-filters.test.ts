import { describe, expect, it } from "vitest";
import { continuesPrevious, groupHeadAt as groupHead } from "../../../src/logs/line-groups.js";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { compileFilters, isShown, matchesSearch } from "../../../src/tui/log-view/log-filters.js";
import { initialUiState, type UiState } from "../../../src/tui/state/ui-state.js";
import { line } from "../fixtures.js";

describe("the dashboard's filters over multi-line events", () => {
  it("reads stack frames, indented, closing and 'Caused by' lines as continuations", () => {
    for (const c of [
      "    at handle (/app/x.js:1:2)",
      "\tat java.base/Thread.run",
      "at Object.<anonymous> (index.js:3:9)",
      "Caused by: java.io.IOException",
      "... 12 more",
      "}",
      "]);",
    ]) {
      expect(continuesPrevious(c), c).toBe(true);
    }
    for (const c of ["ERROR boom", "INFO at noon", "", '{"level":"info"}', "attempt 3"]) {
      expect(continuesPrevious(c), c).toBe(false);
    }
  });

  // Replica 1's error and its frames interleaved with replica 2's lines.
  const store = new LogStore();
  store.append([
    line(0, 1, "INFO starting"),
    line(1, 1, "ERROR upstream timeout"),
    line(2, 2, "INFO request ok"),
    line(3, 1, "    at fetchNonce (/app/a.js:1:1)"),
    line(4, 2, "    at somethingElse (/app/b.js:2:2)"),
    line(5, 1, "    at handle (/app/a.js:9:9)"),
    line(6, 1, "INFO recovered"),
    line(7, 2, "WARN slow"),
    line(8, 2, "INFO fine"),
  ]);
  const shown = (over: Partial<UiState>) => {
    const f = compileFilters({ ...initialUiState, ...over });
    return Array.from({ length: store.size() }, (_, i) => i).filter((i) => isShown(store, i, f));
  };

  it("finds each line's head: the nearest earlier line of its replica that starts an event", () => {
    const content = (i: number) => {
      const e = store.at(i)?.event;
      return e?.kind === "line" ? e.content : undefined;
    };
    const head = (i: number) => groupHead(store, i)?.content;
    expect(head(3)).toBe(content(1));
    expect(head(5)).toBe(content(1));
    expect(head(4)).toBe(content(2));
    expect(head(6)).toBe(content(6));
  });

  it("a frame matching on its own: f keeps its whole event (as tail --grep), F hides it, / finds the frame", () => {
    expect(shown({ include: ["fetchNonce"] })).toEqual([1, 3, 5]);
    expect(shown({ exclude: "fetchNonce" })).toEqual([0, 2, 4, 6, 7, 8]);
    const f = compileFilters({ ...initialUiState, search: "fetchNonce" });
    const found = Array.from({ length: store.size() }, (_, i) => i).filter((i) => {
      const event = store.at(i)?.event;
      return event !== undefined && isShown(store, i, f) && matchesSearch(event, f);
    });
    expect(found).toEqual([3]);
  });

  it("keeps an error's frames under an include filter and a level, and only its own", () => {
    expect(shown({ include: ["ERROR"] })).toEqual([1, 3, 5]);
    expect(shown({ minLevel: "error" })).toEqual([1, 3, 5]);
    expect(shown({ minLevel: "warn" })).toEqual([1, 3, 5, 7]);
    // Several include filters: a line must match every one.
    expect(shown({ include: ["INFO", "re"] })).toEqual([2, 4, 6]);
    expect(shown({ exclude: "ERROR" })).toEqual([0, 2, 4, 6, 7, 8]);
  });

  it("field queries (=) judge each event whole, with its level: a frame goes with its head", () => {
    expect(shown({ where: ["level >= error"] })).toEqual([1, 3, 5]);
    expect(shown({ where: ["level >= warn", "level < error"] })).toEqual([7]);
    // A query that names no field these lines have keeps none of them.
    expect(shown({ where: ["latencyMs > 0"] })).toEqual([]);
    expect(shown({ where: ["not latencyMs > 0"] })).toEqual([]);
  });

  it("shows context lines around the lines the filters keep, as grep -C", () => {
    expect(shown({ include: ["WARN"] })).toEqual([7]);
    expect(shown({ include: ["WARN"], context: 1 })).toEqual([6, 7, 8]);
    expect(shown({ include: ["WARN"], context: 2 })).toEqual([5, 6, 7, 8]);
    // Without a filter, context changes nothing; hidden replicas stay hidden, and context is
    // counted over the replicas shown (as `tail --replica 2 -C 2` counts it).
    expect(shown({ context: 3 })).toHaveLength(9);
    expect(shown({ include: ["WARN"], context: 2, hiddenReplicas: [1] })).toEqual([2, 4, 7, 8]);
  });
});

/**
 * Buffer-wide work in slices: a filter or a search over a large buffer never runs to the end in
 * one go. Each frame, key or background slice judges rows until its budget is spent (a budget on
 * a test clock here: every reading of it moves it on), says it is not done, and the next one goes
 * on from what was judged, never from the start, to exactly the whole answer.
 */
import { describe, expect, it } from "vitest";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { WorkBudget } from "../../../src/logs/work-budget.js";
import {
  compileFilters,
  isShown,
  judgeRest,
  matchesSearchAt,
} from "../../../src/tui/log-view/log-filters.js";
import { logNavigator } from "../../../src/tui/log-view/log-navigator.js";
import { computeLogView } from "../../../src/tui/log-view/log-view.js";
import { initialUiState } from "../../../src/tui/state/ui-state.js";
import { line } from "../fixtures.js";

const LINES = 20_000;

/** A budget that runs out as soon as it first reads its clock (after its fixed minimum of rows). */
const spent = () => {
  let t = 0;
  return WorkBudget.of(0, () => t++);
};

function buffer(): LogStore {
  const store = new LogStore({ maxLines: LINES });
  // Only the oldest line matches the filter: a view must judge every row to find it.
  store.append(
    Array.from({ length: LINES }, (_, i) =>
      line(i, 1 + (i % 3), i === 0 ? "ERROR the needle" : `INFO hay ${i}`),
    ),
  );
  return store;
}

/** A buffer whose lines at these indexes hold the needle. */
function needles(...at: number[]): LogStore {
  const store = new LogStore({ maxLines: LINES });
  store.append(
    Array.from({ length: LINES }, (_, i) =>
      line(i, 1, at.includes(i) ? "ERROR the needle" : `INFO hay ${i}`),
    ),
  );
  return store;
}

describe("filters and search over a large buffer, in slices", () => {
  it("a view judges a slice per frame, says it is filtering, and reaches the one match", () => {
    const store = buffer();
    const state = { ...initialUiState, include: ["needle"] };
    const filters = compileFilters(state);
    let frames = 0;
    let view = computeLogView(store, state, 80, 10, { filters, budget: spent() });
    expect(view.pending).toBe(true);
    expect(view.rows).toEqual([]);
    expect(String(view.empty)).toBe("filtering 20,000 lines… (keys and q answer meanwhile)");
    while (view.pending) {
      frames += 1;
      expect(frames).toBeLessThan(LINES);
      view = computeLogView(store, state, 80, 10, { filters, budget: spent() });
    }
    // More than one frame, and each went on from the last: far fewer frames than rows.
    expect(frames).toBeGreaterThan(1);
    expect(frames).toBeLessThan(LINES / 100);
    const text = view.rows.map((r) => r.segments.map((s) => s.text).join("")).join("\n");
    expect(text).toContain("ERROR the needle");
    expect(text).not.toContain("hay");
  });

  it("the background slices judge every row to the same verdicts as judging at once", () => {
    const store = buffer();
    const state = { ...initialUiState, include: ["needle|hay 1\\d\\d\\d$"], search: "hay 77" };
    const sliced = compileFilters(state);
    let slices = 1;
    while (!judgeRest(store, sliced, spent())) slices += 1;
    expect(slices).toBeGreaterThan(1);
    const whole = compileFilters(state);
    for (let i = 0; i < store.size(); i++) {
      expect(isShown(store, i, sliced, spent())).toBe(isShown(store, i, whole));
    }
  });

  it("a key that runs out says so; pressed again once judged, it finds the match", () => {
    const store = buffer();
    let budgets = spent;
    const nav = logNavigator(store, 80, 10, undefined, () => budgets());
    const state = { ...initialUiState, search: "needle", following: true };
    expect(nav.find(state, "match", -1)).toBeUndefined();
    expect(nav.unfinished()).toBe(true);
    budgets = () => WorkBudget.unlimited();
    const move = nav.find(state, "match", -1);
    expect(nav.unfinished()).toBe(false);
    expect(store.at(store.indexOfId(move?.cursor ?? -1))?.event).toMatchObject({
      content: "ERROR the needle",
    });
  });

  it("a search that runs out before it wraps is unfinished, not no match; judged, it wraps", () => {
    const store = needles(LINES / 2);
    const state = { ...initialUiState, search: "needle", following: false, cursor: LINES };
    const filters = compileFilters(state);
    const nav = logNavigator(store, 80, 10, () => filters, spent);
    // Nothing newer than the newest line: on from the oldest, where the budget runs out.
    expect(nav.find(state, "match", 1, true)).toBeUndefined();
    expect(nav.unfinished()).toBe(true);
    while (!judgeRest(store, filters, spent())) {}
    const move = nav.find(state, "match", 1, true);
    expect(nav.unfinished()).toBe(false);
    expect(move).toMatchObject({
      cursor: LINES / 2 + 1,
      wrapped: true,
      match: { index: 1, total: 1 },
    });
  });

  it("a find whose budget runs out does not take a match judged before, past rows it did not judge", () => {
    const store = needles(0, LINES / 2);
    const state = { ...initialUiState, search: "needle", following: false, cursor: LINES };
    const filters = compileFilters(state);
    // The oldest line was judged (a view showed it); the nearer match in the middle was not.
    expect(matchesSearchAt(store, 0, filters)).toBe(true);
    const nav = logNavigator(store, 80, 10, () => filters, spent);
    expect(nav.find(state, "match", -1)).toBeUndefined();
    expect(nav.unfinished()).toBe(true);
    const judged = logNavigator(store, 80, 10, () => filters).find(state, "match", -1);
    expect(judged?.cursor).toBe(LINES / 2 + 1);
  });

  it("a late line merged in moves the rows: every verdict is dropped and judged again", () => {
    const store = new LogStore();
    store.append([line(1, 1, "ERROR a"), line(3, 1, "INFO b")]);
    const f = compileFilters({ ...initialUiState, include: ["error"] });
    expect([0, 1].map((i) => isShown(store, i, f))).toEqual([true, false]);
    // Older than both: it goes first, and every row moves one place.
    store.append([line(0, 1, "INFO late")]);
    expect([0, 1, 2].map((i) => isShown(store, i, f))).toEqual([false, true, false]);
  });
});

import { describe, expect, it } from "vitest";
import { LogStore } from "../../../src/logs/model/log-store.js";
import { compileFilters, isShown } from "../../../src/tui/log-view/log-filters.js";
import { initialUiState } from "../../../src/tui/state/ui-state.js";
import { line } from "../fixtures.js";

describe("the dashboard's filters and search are smart case, as tail --grep", () => {
  const store = new LogStore();
  store.append([
    line(1, 1, "ERROR payment failed"),
    line(2, 2, '{"level":"error","msg":"payment failed"}'),
  ]);
  it("an all-lower-case filter matches either case", () => {
    const f = compileFilters({ ...initialUiState, include: ["error"] });
    expect(isShown(store, 0, f)).toBe(true);
    expect(isShown(store, 1, f)).toBe(true);
  });
  it("a filter with an upper-case letter is exact", () => {
    const f = compileFilters({ ...initialUiState, include: ["ERROR"] });
    expect(isShown(store, 0, f)).toBe(true);
    expect(isShown(store, 1, f)).toBe(false);
    expect(compileFilters({ ...initialUiState, search: "Payment" }).search?.ignoreCase).toBe(false);
    expect(compileFilters({ ...initialUiState, search: "payment" }).search?.ignoreCase).toBe(true);
  });
});

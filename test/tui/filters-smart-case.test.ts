import { describe, expect, it } from "vitest";
import { compileFilters, matchesFilters } from "../../src/tui/log-view.js";
import { initialUiState } from "../../src/tui/ui-state.js";
import { line } from "./fixtures.js";

describe("the dashboard's filters and search are smart case, as tail --grep", () => {
  const error = line(1, 1, "ERROR payment failed");
  const json = line(2, 2, '{"level":"error","msg":"payment failed"}');
  it("an all-lower-case filter matches either case", () => {
    const f = compileFilters({ ...initialUiState, include: "error" });
    expect(matchesFilters(error, f)).toBe(true);
    expect(matchesFilters(json, f)).toBe(true);
  });
  it("a filter with an upper-case letter is exact", () => {
    const f = compileFilters({ ...initialUiState, include: "ERROR" });
    expect(matchesFilters(error, f)).toBe(true);
    expect(matchesFilters(json, f)).toBe(false);
    expect(compileFilters({ ...initialUiState, search: "Payment" }).search?.flags).toBe("");
    expect(compileFilters({ ...initialUiState, search: "payment" }).search?.flags).toBe("i");
  });
});

/**
 * Selection by identity (issue #28): the selected record stays selected whatever happens to the
 * rows around it; once it is not in the list, it is said to be gone and nothing else is acted on.
 */
import { describe, expect, it } from "vitest";
import {
  type ListRow,
  locate,
  moveSelection,
  notSelectedText,
  paneSelection,
  selectFirst,
} from "../../../src/tui/state/list-selection.js";

const rows = (...keys: string[]): ListRow[] =>
  keys.map((key) => ({ key, name: `activity ${key}` }));

describe("a list pane's selection", () => {
  it("stays on its record when rows arrive above it, leave below it, or the list is replaced", () => {
    const before = rows("b", "c", "d");
    const selected = moveSelection(moveSelection(undefined, before, 1), before, 1);
    expect(selected).toEqual({ key: "c", name: "activity c", at: 1 });
    // A new activity arrives at the top; another leaves.
    const after = rows("a", "b", "c");
    expect(locate(selected, after)).toMatchObject({ kind: "on", index: 2 });
    expect(paneSelection(selected, after)).toEqual({ index: 2, anchor: 2, gone: undefined });
    // ↓ from there goes on from where it is now, not from where it was.
    expect(moveSelection(selected, rows("x", "y", "b", "c", "d"), 1)?.key).toBe("d");
  });

  it("once its record left: says so, highlights nothing, and ↓ ↑ start from where it was", () => {
    const selected = { key: "c", name: "activity c", at: 2 };
    const now = rows("a", "b", "d", "e");
    expect(locate(selected, now)).toEqual({ kind: "gone", selected });
    expect(paneSelection(selected, now)).toEqual({
      index: undefined,
      anchor: 2,
      gone: "activity c",
    });
    expect(moveSelection(selected, now, 1)?.key).toBe("d");
    expect(moveSelection(selected, now, -1)?.key).toBe("b");
    expect(notSelectedText(locate(selected, now), "activity", "approve")).toBe(
      "activity c is no longer in the list: nothing to approve; ↑ ↓ select another",
    );
    // An empty list keeps it as it is.
    expect(moveSelection(selected, [], 1)).toBe(selected);
  });

  it("starts with nothing selected; focusing selects the first row; ↓ from nothing selects it too", () => {
    expect(notSelectedText(locate(undefined, rows("a")), "email", "open")).toBe(
      "no email selected: ↑ ↓ select one",
    );
    expect(selectFirst(undefined, rows("a", "b"))?.key).toBe("a");
    expect(selectFirst(undefined, [])).toBeUndefined();
    const chosen = { key: "b", name: "activity b", at: 1 };
    expect(selectFirst(chosen, rows("a", "b"))).toBe(chosen);
    expect(moveSelection(undefined, rows("a", "b"), 1)?.key).toBe("a");
    expect(moveSelection(undefined, rows("a", "b"), -1)?.key).toBe("a");
    // Paging stops at the ends.
    expect(moveSelection(chosen, rows("a", "b", "c"), 10)?.key).toBe("c");
    expect(moveSelection(chosen, rows("a", "b", "c"), -10)?.key).toBe("a");
  });
});

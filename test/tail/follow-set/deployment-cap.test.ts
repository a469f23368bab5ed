/**
 * `--max-deployments` (src/tail/follow-set/deployment-cap.ts): the first N listed at the start; at a relist,
 * gone ones let go, new ones taken in the listing's order while there is room; the rest counted.
 */
import { describe, expect, it } from "vitest";
import {
  capDeployments,
  DEFAULT_MAX_DEPLOYMENTS,
  leftOutLine,
  relistChange,
} from "../../../src/tail/follow-set/deployment-cap.js";

describe("capDeployments", () => {
  it("follows the first N listed, a repeated id once, and counts the rest", () => {
    expect(capDeployments(["a", "b", "a", "c", "d"], 2)).toEqual({
      follow: ["a", "b"],
      listed: 4,
      leftOut: 2,
    });
    expect(capDeployments(["a"], DEFAULT_MAX_DEPLOYMENTS)).toEqual({
      follow: ["a"],
      listed: 1,
      leftOut: 0,
    });
    expect(DEFAULT_MAX_DEPLOYMENTS).toBe(50);
  });
});

describe("relistChange", () => {
  it("keeps what is still listed, lets go what is not, fills the room in the listing's order", () => {
    expect(relistChange(["a", "b"], ["x", "b", "y", "z"], 3)).toEqual({
      gone: ["a"],
      added: ["x", "y"],
      leftOut: 1,
      listed: 4,
    });
  });

  it("does not swap a followed deployment for one listed before it (no churn)", () => {
    expect(relistChange(["c", "d"], ["a", "b", "c", "d"], 2)).toEqual({
      gone: [],
      added: [],
      leftOut: 2,
      listed: 4,
    });
  });

  it("with room for all, adds every new one, each once", () => {
    expect(relistChange(["a"], ["a", "b", "b", "c"], 50)).toEqual({
      gone: [],
      added: ["b", "c"],
      leftOut: 0,
      listed: 3,
    });
  });
});

describe("leftOutLine", () => {
  it("names the flag and how many were left out, or says nothing", () => {
    expect(leftOutLine({ listed: 10_000, leftOut: 9_950 }, 50)).toBe(
      "following 50 of 10,000 debug-mode deployments (by app, live first, newest first): 9,950 left out by --max-deployments 50; raise it to follow more",
    );
    expect(leftOutLine({ listed: 3, leftOut: 0 }, 50)).toBeUndefined();
  });
});

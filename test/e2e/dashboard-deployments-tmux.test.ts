import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireTmux, Tmux } from "./tmux.js";

/**
 * `tvcwatch demo --app payments-signer`: the app's two debug-mode deployments in one dashboard;
 * `D` and back keeps them (issue #28).
 */
const tmux = new Tmux();

/** The replicas' sparkline strip: tags and bars only. */
const strip = /[│║](\[[^\]]+\][ ▁▂▃▄▅▆▇█]*)+[│║]/;
/** Log rows of a deployment, by the label in their replica tag (the strip is not a row). */
const rowsOf = (s: string, label: string) =>
  s
    .split("\n")
    .filter((l) => new RegExp(`[│║]\\[${label} \\d\\][ >*] *\\S`).test(l) && !strip.test(l));
/** The strip's row. */
const stripOf = (s: string) => s.split("\n").find((l) => strip.test(l)) ?? "";

beforeAll(() => {
  requireTmux();
  tmux.start(
    ["demo", "--seed", "5", "--app", "payments-signer"],
    { columns: 160, rows: 44 },
    {
      NO_COLOR: "",
    },
  );
});

afterAll(() => tmux.kill());

describe("the dashboard over an app's deployments, in a real terminal", () => {
  it("merges them, shows one alone with d, and reports each in i", async () => {
    const first = await tmux.waitFor("both deployments' lines", (s) => {
      const m = /2 deployments: (\w+), (\w+)/.exec(s);
      return (
        m !== null && rowsOf(s, m[1] as string).length > 0 && rowsOf(s, m[2] as string).length > 0
      );
    });
    const [, a, b] = /2 deployments: (\w+), (\w+)/.exec(first) as RegExpExecArray;
    await tmux.keys("d");
    const alone = await tmux.waitFor(
      `only ${a}`,
      (s) => s.includes(`only ${a}`) && rowsOf(s, a as string).length > 5,
    );
    expect(rowsOf(alone, b as string)).toEqual([]);
    // The strip shows the replicas of the deployment shown.
    expect(stripOf(alone)).toContain(`[${a} 1]`);
    expect(stripOf(alone)).not.toContain(`[${b} `);
    await tmux.keys("d");
    const other = await tmux.waitFor(`only ${b}`, (s) => s.includes(`only ${b}`));
    expect(rowsOf(other, a as string)).toEqual([]);
    await tmux.keys("d");
    await tmux.waitFor("all again", (s) => !/only \w+/.test(s));
    await tmux.keys("i");
    const detail = await tmux.waitFor("each deployment's follow", (s) =>
      new RegExp(`${a} \\([0-9a-f-]+\\): live[\\s\\S]*${b} \\([0-9a-f-]+\\): live`).test(s),
    );
    expect(detail).toMatch(/deployments/);
    await tmux.keys("Escape");

    // D opens the picker over the dashboard; Esc, then Enter on the scope shown, come back to
    // it as it was: the follow went on (the buffer only grew), the merged scope is kept.
    const buffered = (s: string) => Number(/(\d+)\/100000 buffered/.exec(s)?.[1] ?? -1);
    const was = buffered(await tmux.settledScreen());
    await tmux.keys("D");
    await tmux.waitFor("the picker over the dashboard", (s) =>
      s.includes("↩ shown now: --app payments-signer"),
    );
    await tmux.keys("Escape");
    let back = await tmux.waitFor("the dashboard again", (s) => s.includes("▸ Logs"));
    expect(back).toMatch(/2 deployments: \w+, \w+/);
    expect(buffered(back)).toBeGreaterThanOrEqual(was);
    await tmux.keys("D");
    await tmux.waitFor("the picker", (s) => s.includes("↩ shown now"));
    await tmux.keys("Enter");
    back = await tmux.waitFor("the dashboard again", (s) => s.includes("▸ Logs"));
    expect(back).toMatch(/2 deployments: \w+, \w+/);
    expect(buffered(back)).toBeGreaterThanOrEqual(was);
    await tmux.keys("q");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireTmux, Tmux } from "./tmux.js";

/**
 * `tvcwatch demo --app payments-signer`: the app's two debug-mode deployments in one dashboard;
 * `D` and back keeps them (issue #28).
 */
const tmux = new Tmux();

/** The replicas' sparkline strip: tags and bars only. */
const strip = /[│║](\[[^\]]+\][ ▁▂▃▄▅▆▇█!]*)+[│║]/;
/** A label as a regex matches it (a version has dots). */
const re = (label: string) => label.replaceAll(".", "\\.");
/** Log rows of a deployment, by the label in their replica tag (the strip is not a row). */
const rowsOf = (s: string, label: string) =>
  s
    .split("\n")
    .filter((l) => new RegExp(`[│║]\\[${re(label)} \\d\\][ >*] *\\S`).test(l) && !strip.test(l));
/**
 * The title's labels: each deployment's id prefix, QOS version and role (the app's live one
 * first), each with its ready/desired replicas as get_app_status says them.
 */
const TITLE = /2 deployments: (\w+ 0\.7\.2 live) 3\/3, (\w+ 0\.8\.0 canary) 2\/2/;
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
      const m = TITLE.exec(s);
      return (
        m !== null && rowsOf(s, m[1] as string).length > 0 && rowsOf(s, m[2] as string).length > 0
      );
    });
    const labels = TITLE.exec(first);
    const a = labels?.[1] ?? "";
    const b = labels?.[2] ?? "";
    tmux.keys("d");
    await tmux.waitFor(`only ${a}, its replicas alone in the strip`, (s) => {
      expect(s).toContain(`only ${a}`);
      expect(rowsOf(s, a).length).toBeGreaterThan(5);
      expect(rowsOf(s, b)).toEqual([]);
      expect(stripOf(s)).toContain(`[${a} 1]`);
      expect(stripOf(s)).not.toContain(`[${b} `);
    });
    tmux.keys("d");
    await tmux.waitFor(`only ${b}`, (s) => {
      expect(s).toContain(`only ${b}`);
      expect(rowsOf(s, a)).toEqual([]);
    });
    tmux.keys("d");
    await tmux.waitFor("all again", (s) => !/only \w+/.test(s));
    // i names each deployment by its label, version and role included.
    tmux.keys("i");
    await tmux.waitFor("each deployment's follow", (s) => {
      expect(s).toMatch(
        new RegExp(`${re(a)} \\([0-9a-f-]+\\): live[\\s\\S]*${re(b)} \\([0-9a-f-]+\\): live`),
      );
      expect(s).toMatch(/deployments/);
    });
    tmux.keys("Escape");

    // D opens the picker over the dashboard; Esc, then Enter on the scope shown, come back to
    // it as it was: the follow went on (the buffer only grew), the merged scope is kept.
    const buffered = (s: string) =>
      Number(/([\d,]+)\/100,000 buffered/.exec(s)?.[1]?.replaceAll(",", "") ?? -1);
    const was = buffered(
      await tmux.waitFor("the dashboard, its buffer counted", (s) => buffered(s) > 0),
    );
    tmux.keys("D");
    await tmux.waitFor("the picker over the dashboard", (s) =>
      s.includes("↩ shown now: --app payments-signer"),
    );
    tmux.keys("Escape");
    const back = (s: string) => {
      expect(s).toContain("▸ Logs");
      expect(s).toMatch(TITLE);
      expect(buffered(s)).toBeGreaterThanOrEqual(was);
    };
    await tmux.waitFor("the same dashboard again", back);
    tmux.keys("D");
    await tmux.waitFor("the picker", (s) => s.includes("↩ shown now"));
    tmux.keys("Enter");
    await tmux.waitFor("the same dashboard again", back);
    tmux.keys("q");
    await tmux.waitFor("the program to exit", (s) => s.includes("TVCWATCH-EXITED 0"));
  });
});

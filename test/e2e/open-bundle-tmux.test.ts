import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Activity, EmailEvent } from "../../src/api/schemas.js";
import { savedView } from "../../src/tui/saving/saved-view.js";
import { bundleFields, incidentFields } from "../../src/tui/saving/ticket-bundle.js";
import { initialUiState } from "../../src/tui/state/ui-state.js";
import { INCIDENT_START, incidentRows } from "../helpers/saved-incident.js";
import { activity, EMAILS } from "../tui/fixtures.js";
import { requireTmux, Tmux } from "./tmux.js";

/**
 * `tvcwatch open` of a ticket bundle in a real terminal: the side panes show the bundle's
 * activities and email of its range beside the log, at 80x24 and 160x48; `A` says the bundle is
 * read-only; `i` lists the status changes the dashboard saw.
 */

const sessions: Tmux[] = [];
beforeAll(() => requireTmux());
afterAll(() => {
  for (const t of sessions) t.kill();
});

const lastLine = (s: string) => s.replace(/\n+$/, "").split("\n").at(-1) ?? "";
const SIGNING = "0193a4b2-7c1d-7e00-9f3a-5b6c7d8e9f01";

function writeBundle(): string {
  const rows = incidentRows();
  const signing: Activity = {
    ...activity(SIGNING, "CONSENSUS_NEEDED", 0),
    createdAt: { seconds: String(Math.floor(INCIDENT_START / 1000) + 12), nanos: "0" },
    updatedAt: String(INCIDENT_START + 20_000),
  };
  const email: EmailEvent[] = EMAILS.map((e, i) => ({
    ...e,
    timestamp: String(INCIDENT_START + 15_000 + i * 900),
  }));
  const events = [
    {
      kind: "status" as const,
      at: INCIDENT_START + 20_000,
      key: "s",
      text: `activity ${SIGNING} sign_transaction v2: PENDING → CONSENSUS_NEEDED`,
      fields: {},
    },
  ];
  const text = savedView(rows, "ndjson", {
    deploymentId: "96951283-6a89-4ac4-a9de-b2b6af1aa297",
    filters: initialUiState,
    savedAt: INCIDENT_START + 125_000,
    range: { kind: "all" },
    bundle: {
      ...bundleFields(rows, undefined, []),
      ...incidentFields(rows, {
        activities: [signing],
        email,
        solana: undefined,
        events,
        marks: [],
        onset: undefined,
      }),
    },
  }).text;
  const path = join(mkdtempSync(join(tmpdir(), "tvcwatch-bundle-")), "incident.bundle.ndjson");
  writeFileSync(path, text);
  return path;
}

describe("open BUNDLE in a real terminal", () => {
  it("shows the bundle's records in the side panes, read-only, at 80x24 and 160x48", {
    timeout: 90_000,
  }, async () => {
    const path = writeBundle();
    for (const [columns, rows] of [
      [80, 24],
      [160, 48],
    ] as const) {
      const tmux = new Tmux();
      sessions.push(tmux);
      tmux.start(["open", path], { columns, rows });
      await tmux.waitFor(`the bundle's records in the panes at ${columns}x${rows}`, (s) => {
        expect(lastLine(s)).toContain("○ saved lines");
        expect(s).toMatch(/Activities/);
        expect(s).toContain(SIGNING.slice(0, 8));
        expect(s).toMatch(/Email/);
        expect(s).toContain("Bounce");
      });
      tmux.keys("Tab");
      tmux.keys("A");
      await tmux.waitFor("A saying the bundle is read-only", (s) =>
        expect(lastLine(s)).toContain("cannot approve: a saved bundle is read-only"),
      );
      if (columns >= 160) {
        tmux.keys("i");
        await tmux.waitFor("i listing the status changes seen", (s) =>
          expect(s).toContain("PENDING → CONSENSUS_NEEDED"),
        );
      }
      tmux.keys("q");
      await tmux.waitFor("the exit", (s) => expect(s).toContain("TVCWATCH-EXITED 0"));
    }
  });
});

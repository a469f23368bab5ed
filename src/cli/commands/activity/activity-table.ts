/**
 * `tvcwatch activity list` as text: one row per activity, newest first, with the whole ID (to
 * copy into `activity get|approve|wait`), status, short type, votes, age, and whether it awaits
 * the caller's vote. Two activities the server sent under one id (differing in type or
 * fingerprint) are both listed, each marked as contested instead, as the dashboard marks them.
 * Every cell is escaped for the terminal before any colour is added.
 */

import { shortStatus, shortType, timestampMs } from "../../../activity/activity-fields.js";
import { CONFLICT_TEXT, contestedIds } from "../../../activity/activity-identity.js";
import type { Activity } from "../../../api/schemas.js";
import { ansi, type TextColour } from "../../../text/colour.js";
import { shortAge } from "../../../text/duration.js";
import { sanitizeForTerminal } from "../../../text/sanitize.js";

const STATUS_COLOURS: Readonly<Record<string, TextColour>> = {
  CONSENSUS_NEEDED: "yellow",
  FAILED: "red",
  REJECTED: "red",
  COMPLETED: "green",
};

function votesCell(a: Activity): string {
  const approved = a.votes.filter((v) => v.selection === "VOTE_SELECTION_APPROVED").length;
  const rejected = a.votes.filter((v) => v.selection === "VOTE_SELECTION_REJECTED").length;
  if (approved + rejected === 0) return "-";
  return [approved ? `${approved} approved` : "", rejected ? `${rejected} rejected` : ""]
    .filter(Boolean)
    .join(", ");
}

export function activityTable(
  activities: readonly Activity[],
  now: number,
  colour: boolean,
): string {
  const header = ["ID", "STATUS", "TYPE", "VOTES", "AGE", ""];
  const contested = contestedIds(activities);
  const rows = activities.map((a) => {
    const created = timestampMs(a.createdAt);
    return [
      a.id,
      shortStatus(a.status),
      shortType(a.type),
      votesCell(a),
      created === undefined ? "?" : shortAge(now - created),
      contested.has(a.id)
        ? `contested: ${CONFLICT_TEXT}`
        : a.canApprove || a.canReject
          ? "awaiting your vote"
          : "",
    ].map(sanitizeForTerminal);
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[], paint: boolean) =>
    cells
      .map((cell, i) => {
        const padded = i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0);
        const c = STATUS_COLOURS[cell];
        return paint && i === 1 && c ? ansi(c, padded) : padded;
      })
      .join("  ")
      .trimEnd();
  return [line(header, false), ...rows.map((r) => line(r, colour))].join("\n");
}

import { memo } from "react";
import type { FollowerState } from "../../tail/follower.js";
import { lit, type Safe, safe, safeBounded } from "../../text/safe-text.js";
import type { Colour, Segment } from "../segment.js";
import type { UiState } from "../ui-state.js";
import { Line } from "./safe-text.js";

function connection(s: FollowerState): { text: Safe; colour: Colour } {
  switch (s.phase) {
    case "live":
      return { text: lit`● live`, colour: "green" };
    case "retrying":
      return { text: lit`● retrying ${s.retries}`, colour: "yellow" };
    case "failed":
      return { text: lit`● error`, colour: "red" };
    case "starting":
      return { text: lit`○ connecting`, colour: "yellow" };
    default:
      return { text: lit`○ stopped`, colour: "gray" };
  }
}

/** The bottom line: connection, latency, rate, buffer, filters, follow state; or the input prompt. */
export const StatusBar = memo(function StatusBar(props: {
  state: FollowerState;
  ui: UiState;
  buffered: number;
  cap: number;
  width: number;
}) {
  const { ui, state } = props;
  if (ui.input) {
    const label =
      ui.input.mode === "search"
        ? lit`search /`
        : ui.input.mode === "include"
          ? lit`include (regex) f`
          : lit`exclude (regex) F`;
    return (
      <Line
        segments={[
          { text: lit`${label} `, colour: "cyan" },
          { text: lit`${safeBounded(ui.input.text, 2000)}▏` },
          { text: lit`  Enter apply · Esc cancel`, dim: true },
        ]}
      />
    );
  }
  const c = connection(state);
  const parts: Safe[] = [];
  if (state.lastPollLatencyMs !== undefined)
    parts.push(lit`${Math.round(state.lastPollLatencyMs)}ms`);
  parts.push(lit`${safe(state.linesPerSecond.toFixed(state.linesPerSecond < 10 ? 1 : 0))} lines/s`);
  parts.push(lit`${props.buffered}/${props.cap} buffered`);
  const filters: Safe[] = [];
  if (ui.include) filters.push(lit`+/${safeBounded(ui.include, 200)}/`);
  if (ui.exclude) filters.push(lit`-/${safeBounded(ui.exclude, 200)}/`);
  if (ui.search) filters.push(lit`search /${safeBounded(ui.search, 200)}/`);
  if (ui.hiddenReplicas.length > 0) filters.push(lit`hidden ${safe(ui.hiddenReplicas.join(","))}`);
  const segments: Segment[] = [
    { text: c.text, colour: c.colour },
    { text: lit`  ${safe(parts.join(" · "))}` },
  ];
  if (filters.length > 0)
    segments.push({ text: lit`  ${safe(filters.join(" "))}`, colour: "cyan" });
  segments.push({
    text: ui.following ? lit`  following` : lit`  paused`,
    colour: ui.following ? "green" : "yellow",
  });
  if (ui.inputError)
    segments.push({ text: lit`  ${safeBounded(ui.inputError, 500)}`, colour: "red" });
  if (state.phase !== "live" && state.lastError) {
    segments.push({ text: lit`  ${safeBounded(state.lastError, 500)}`, colour: "red" });
  }
  segments.push({ text: lit`  ? help`, dim: true });
  return <Line segments={segments} />;
});

import { Text } from "ink";
import { memo } from "react";
import type { FollowerState } from "../../tail/follower.js";
import type { UiState } from "../ui-state.js";

function connection(s: FollowerState): { text: string; colour: string } {
  switch (s.phase) {
    case "live":
      return { text: "● live", colour: "green" };
    case "retrying":
      return { text: `● retrying ${s.retries}`, colour: "yellow" };
    case "failed":
      return { text: "● error", colour: "red" };
    case "starting":
      return { text: "○ connecting", colour: "yellow" };
    default:
      return { text: "○ stopped", colour: "gray" };
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
        ? "search /"
        : ui.input.mode === "include"
          ? "include (regex) f"
          : "exclude (regex) F";
    return (
      <Text wrap="truncate-start">
        <Text color="cyan">{`${label} `}</Text>
        <Text>{`${ui.input.text}▏`}</Text>
        <Text dimColor>{"  Enter apply · Esc cancel"}</Text>
      </Text>
    );
  }
  const c = connection(state);
  const parts: string[] = [];
  if (state.lastPollLatencyMs !== undefined) parts.push(`${Math.round(state.lastPollLatencyMs)}ms`);
  parts.push(`${state.linesPerSecond.toFixed(state.linesPerSecond < 10 ? 1 : 0)} lines/s`);
  parts.push(`${props.buffered}/${props.cap} buffered`);
  const filters: string[] = [];
  if (ui.include) filters.push(`+/${ui.include}/`);
  if (ui.exclude) filters.push(`-/${ui.exclude}/`);
  if (ui.search) filters.push(`search /${ui.search}/`);
  if (ui.hiddenReplicas.length > 0) filters.push(`hidden ${ui.hiddenReplicas.join(",")}`);
  return (
    <Text wrap="truncate-end">
      <Text color={c.colour}>{c.text}</Text>
      <Text>{`  ${parts.join(" · ")}`}</Text>
      {filters.length > 0 ? <Text color="cyan">{`  ${filters.join(" ")}`}</Text> : null}
      <Text color={ui.following ? "green" : "yellow"}>
        {ui.following ? "  following" : "  paused"}
      </Text>
      {ui.inputError ? <Text color="red">{`  ${ui.inputError}`}</Text> : null}
      {state.phase !== "live" && state.lastError ? (
        <Text color="red">{`  ${state.lastError}`}</Text>
      ) : null}
      <Text dimColor>{"  ? help"}</Text>
    </Text>
  );
});

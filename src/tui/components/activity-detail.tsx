import { Box, Text } from "ink";
import type { Activity } from "../../api/schemas.js";
import { sanitizeForTerminal } from "../../text/sanitize.js";

/** Lines of the detail view: intent, result, votes, fingerprint, approvals, failure. */
export function detailLines(a: Activity): string[] {
  const lines = [
    `id           ${a.id}`,
    `type         ${a.type}`,
    `status       ${a.status}`,
    `fingerprint  ${a.fingerprint}`,
    `canApprove   ${a.canApprove}    canReject ${a.canReject}`,
    `votes        ${a.votes.length}`,
  ];
  for (const v of a.votes)
    lines.push(`  ${v.selection.replace("VOTE_SELECTION_", "")} by ${v.userId}`);
  if (a.failure) lines.push(`failure      ${a.failure.code ?? ""} ${a.failure.message ?? ""}`);
  lines.push("intent");
  for (const l of JSON.stringify(a.intent, null, 2).split("\n")) lines.push(`  ${l}`);
  lines.push("result");
  for (const l of JSON.stringify(a.result, null, 2).split("\n")) lines.push(`  ${l}`);
  return lines.map(sanitizeForTerminal);
}

export function ActivityDetail(props: {
  activity: Activity | undefined;
  width: number;
  height: number;
}) {
  const lines = props.activity
    ? detailLines(props.activity)
    : ["(the activity is no longer in the loaded list)"];
  return (
    <Box
      flexDirection="column"
      width={props.width}
      height={props.height}
      borderStyle="round"
      borderColor="magenta"
      paddingX={1}
      overflow="hidden"
    >
      <Text bold color="magenta">
        Activity detail (Esc closes)
      </Text>
      {lines.slice(0, Math.max(0, props.height - 3)).map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static lines of one view
        <Text key={i} wrap="truncate-end">
          {l}
        </Text>
      ))}
    </Box>
  );
}

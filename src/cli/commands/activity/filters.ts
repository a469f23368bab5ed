/**
 * `tvcwatch activity list --status S --type T`: each flag repeatable and comma-separated, in the
 * forms `tk` takes (`--status consensus`, `--status pending`, `--status all`) or the API's own
 * names (`ACTIVITY_STATUS_FAILED`, `ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE`, or
 * `set_organization_feature`). A value that is neither is one line naming the flag and the close
 * matches.
 */
import { InvalidArgumentError } from "commander";
import { ACTIVITY_TYPES } from "../../../api/activity-types.js";
import { ACTIVITY_STATUSES } from "../../../api/schemas.js";
import { closeMatches } from "../../suggest.js";

const STATUS_ALIASES: Readonly<Record<string, string>> = {
  consensus: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
  authenticators: "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED",
};

const shortStatusName = (s: string) => s.replace(/^ACTIVITY_STATUS_/, "").toLowerCase();
const shortTypeName = (t: string) => t.replace(/^ACTIVITY_TYPE_/, "").toLowerCase();

function values(text: string): string[] {
  return text
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

/** One status: `consensus`, `consensus_needed`, `ACTIVITY_STATUS_CONSENSUS_NEEDED`, ... */
export function parseStatus(value: string): string {
  const lower = value.toLowerCase();
  const alias = STATUS_ALIASES[lower];
  if (alias) return alias;
  const found = ACTIVITY_STATUSES.find(
    (s) => s.toLowerCase() === lower || shortStatusName(s) === lower,
  );
  if (found) return found;
  const names = [...ACTIVITY_STATUSES.map(shortStatusName), "consensus", "all"];
  const near = closeMatches(lower, names);
  throw new InvalidArgumentError(
    `unknown status ${JSON.stringify(value)}${near.length ? `; did you mean ${near.join(", ")}?` : ""} (statuses: ${names.join(", ")})`,
  );
}

/** Names whose words begin with the input's words, in order: `set_org_feat` -> set_organization_feature. */
function abbreviated(input: string, names: readonly string[]): string[] {
  const words = input.split("_").filter(Boolean);
  return names.filter((name) => {
    const parts = name.split("_");
    return parts.length === words.length && words.every((w, i) => parts[i]?.startsWith(w));
  });
}

/** One type: `set_organization_feature`, `sign_transaction_v2`, `ACTIVITY_TYPE_...`. */
export function parseType(value: string): string {
  const lower = value.toLowerCase();
  const found = ACTIVITY_TYPES.find((t) => t.toLowerCase() === lower || shortTypeName(t) === lower);
  if (found) return found;
  const short = ACTIVITY_TYPES.map(shortTypeName);
  const near = [
    ...new Set([
      ...abbreviated(shortTypeName(lower), short),
      ...closeMatches(shortTypeName(lower), short),
    ]),
  ].slice(0, 3);
  throw new InvalidArgumentError(
    `unknown activity type ${JSON.stringify(value)}${near.length ? `; did you mean ${near.join(", ")}?` : ""}`,
  );
}

/** Commander parser of a repeatable, comma-separated --status; `all` clears the filter. */
export function statusFlag(value: string, previous: string[] | undefined): string[] {
  const list = values(value);
  if (list.length === 0) throw new InvalidArgumentError("must not be empty");
  if (list.some((v) => v.toLowerCase() === "all")) return [];
  return [...new Set([...(previous ?? []), ...list.map(parseStatus)])];
}

/** Commander parser of a repeatable, comma-separated --type. */
export function typeFlag(value: string, previous: string[] | undefined): string[] {
  const list = values(value);
  if (list.length === 0) throw new InvalidArgumentError("must not be empty");
  return [...new Set([...(previous ?? []), ...list.map(parseType)])];
}

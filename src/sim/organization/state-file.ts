/**
 * `--state FILE`: the organization's records on disk, written atomically (src/sim/atomic-file.ts:
 * a crash mid-write leaves either the old state or the new one, never a torn file; a temporary
 * file a killed run left is removed at the next start), owner-only (0600): it holds the
 * organization's private keys and mnemonics.
 */
import { join } from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { z } from "zod";
import { writeFileAtomically } from "../../config/atomic-file.js";
import { fileProblem } from "../../config/file-problem.js";
import { assertPrivateMode } from "../../config/key-files.js";
import { READ_LIMITS, readNamedFileIfExists } from "../../config/named-file.js";
import { uuidOf } from "../seeded.js";
import { GOOGLE_CLIENT_ID } from "./org-seed.js";
import { type OrgState, STATE_VERSION } from "./org-state.js";

export class StateFileError extends Error {}

const records = z.array(z.looseObject({}));

/** The top level of a state file; records are checked loosely (they are our own output). */
const stateFileSchema = z.looseObject({
  version: z.literal(STATE_VERSION),
  seed: z.number().int(),
  scenario: z.enum(["demo", "quiet", "incident"]),
  organizationId: z.string().min(1),
  organizationName: z.string(),
  rootQuorum: z.object({ threshold: z.number().int().min(1), userIds: z.array(z.string()) }),
  users: records,
  apiKeys: records,
  privateKeys: records,
  wallets: records,
  secrets: records,
  tags: records,
  sessionProfiles: records,
  smartContractInterfaces: records,
  webhookEndpoints: records,
  invitations: records,
  oauth2Credentials: records,
  features: records,
  activities: records,
});

/** Reads a state file; undefined when it does not exist yet. Throws StateFileError naming the problem. */
export function readStateFile(path: string): OrgState | undefined {
  let text: string;
  try {
    const read = readNamedFileIfExists(path, "--state", READ_LIMITS.state, {
      directoryHint: `name a file, e.g. --state ${join(path, "org.json")}`,
    });
    if (read === undefined) return undefined;
    // It holds the organization's private keys and mnemonics.
    assertPrivateMode(path, "--state", read.mode);
    text = read.text;
  } catch (err) {
    throw new StateFileError((err as Error).message);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StateFileError(
      `--state ${path} is not valid JSON; it was not written by tvcwatch sim, or was edited by hand`,
    );
  }
  const parsed = stateFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join(".") || "(top level)";
    throw new StateFileError(
      `--state ${path} is not a tvcwatch sim state file (version ${STATE_VERSION}): ${field}: ${issue?.message ?? "invalid"}`,
    );
  }
  return withAddedFields(parsed.data as unknown as OrgState);
}

/** Fields records gained after the first state files were written, filled in when absent. */
function withAddedFields(state: OrgState): OrgState {
  for (const user of state.users) {
    for (const provider of user.oauthProviders) {
      provider.providerId ??= uuidOf(
        sha256(new TextEncoder().encode(`${user.userId}|${provider.issuer}|${provider.subject}`)),
      );
      provider.audience ??= GOOGLE_CLIENT_ID;
    }
  }
  return state;
}

/** The organization as a state file holds it. */
export function stateFileText(state: OrgState): string {
  return `${JSON.stringify(state)}\n`;
}

/** Replaces the file with `text` atomically; see the file comment. StateFileError on failure. */
export function writeStateFile(path: string, text: string): void {
  try {
    writeFileAtomically(path, text);
  } catch (err) {
    throw new StateFileError(
      `cannot write --state ${path}: ${problem(err as NodeJS.ErrnoException)}`,
    );
  }
}

function problem(err: NodeJS.ErrnoException): string {
  if (err.code === "ENOTDIR") return "a part of its path is not a directory";
  if (err.code === "EROFS") return "the file system is read-only";
  return fileProblem(err);
}

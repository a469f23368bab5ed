/**
 * `--state FILE`: the organization's records on disk. Written atomically — a temporary file in
 * the same directory, flushed to disk, then renamed over the old one, and the directory flushed —
 * so a crash mid-write leaves either the old state or the new one, never a torn file. Owner-only
 * (0600): it holds the organization's private keys and mnemonics.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { fileProblem } from "../config/file-problem.js";
import { assertPrivateFileMode } from "../config/key-files.js";
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
  if (!existsSync(path)) return undefined;
  try {
    // It holds the organization's private keys and mnemonics.
    assertPrivateFileMode(path, "--state");
  } catch (err) {
    throw new StateFileError((err as Error).message);
  }
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new StateFileError(
      `cannot read --state ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
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
  return parsed.data as unknown as OrgState;
}

/** Replaces the file with `state` atomically; see the file comment. StateFileError on failure. */
export function writeStateFile(path: string, state: OrgState): void {
  try {
    replaceAtomically(path, state);
  } catch (err) {
    throw new StateFileError(
      `cannot write --state ${path}: ${fileProblem(err as NodeJS.ErrnoException)}`,
    );
  }
}

function replaceAtomically(path: string, state: OrgState): void {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.tmp`);
  const fd = openSync(temp, "w", 0o600);
  try {
    writeSync(fd, `${JSON.stringify(state)}\n`);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  closeSync(fd);
  renameSync(temp, path);
  syncDirectory(dir);
}

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some file systems cannot fsync a directory; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

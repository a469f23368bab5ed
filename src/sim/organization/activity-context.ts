/**
 * What an activity runs with: the organization's state, the server's time, the user it runs as,
 * and the simulator's enclave (which signs bundles and session tokens).
 */

import type { z } from "zod";
import type { ActivityOperationName, Operations } from "../../api/operations.js";
import { invalidArgument, notFound } from "../http/sim-error.js";
import type { OrgState, UserRecord } from "./org-state.js";

/** An activity's parameters as its schema in the operation table gives them, validated. */
export type ParamsOf<N extends ActivityOperationName> = z.output<Operations[N]["params"]>;

/** What an activity's result must be to pass the client's schema of it. */
export type ResultOf<N extends ActivityOperationName> = z.input<Operations[N]["result"]>;

export interface SessionClaimsInput {
  exp: number;
  public_key: string;
  session_type: "SESSION_TYPE_READ_WRITE" | "SESSION_TYPE_READ_ONLY";
  user_id: string;
  organization_id: string;
}

export interface ActivityContext {
  state: OrgState;
  /** The server's clock, epoch ms. */
  now: number;
  /** The user the activity runs as: who submitted it. */
  caller: UserRecord;
  /** A fresh identifier. */
  newId(): string;
  /** A session JWT signed by the simulator's enclave key. */
  signSession(claims: SessionClaimsInput): string;
  /** Encrypts to a client key in the credential-bundle format (oauth). */
  credentialBundle(plaintext: Uint8Array, targetPublicKey: string): Promise<string>;
  /** Encrypts to a client key in the signed export-bundle format (export_wallet). */
  exportBundle(plaintext: Uint8Array, targetPublicKey: string): Promise<string>;
  /** Encrypts to a client key as one export_secrets payload. */
  secretPayload(plaintext: Uint8Array, targetPublicKey: string): Promise<string>;
}

export function findUser(state: OrgState, userId: string): UserRecord {
  const user = state.users.find((u) => u.userId === userId);
  if (!user) throw notFound(`user ${userId} not found in organization ${state.organizationId}`);
  return user;
}

/** A uint64 string field as a positive number of seconds; INVALID_ARGUMENT otherwise. */
export function positiveSeconds(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) {
    throw invalidArgument(`${field} must be a whole number of seconds, at least 1`, field);
  }
  return n;
}

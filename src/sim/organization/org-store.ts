/**
 * The organization's records and their persistence: the state, its ledger of submitted
 * activities, and `--state FILE`. Every change is committed: written to the file (atomically)
 * before it is answered; one that cannot be written is not made (the organization goes back to
 * what the file holds, and the request fails with the file's problem).
 */
import { GrpcCode } from "../../api/grpc-codes.js";
import { SimError } from "../http/sim-error.js";
import { ActivityLedger } from "./activity-ledger.js";
import type { OrgState } from "./org-state.js";
import { StateFileError, stateFileText, writeStateFile } from "./state-file.js";

export interface OrgStoreOptions {
  /** Where to save the organization after every change (`--state`); nowhere when absent. */
  statePath?: string | undefined;
  /** Told of each change that could not be saved (the simulator prints it on stderr). */
  onSaveError?: ((message: string) => void) | undefined;
}

export class OrgStore {
  readonly ledger: ActivityLedger;
  /** The state file's text as last written: what a failed save rolls back to. */
  private saved: string | undefined;

  /**
   * `fromFile`: the state was read from `statePath`; otherwise it is new, and written there now
   * (a StateFileError names the problem).
   */
  constructor(
    readonly state: OrgState,
    fromFile: boolean,
    private readonly options: OrgStoreOptions = {},
  ) {
    this.ledger = new ActivityLedger(state);
    if (!options.statePath) return;
    const text = stateFileText(state);
    if (!fromFile) writeStateFile(options.statePath, text);
    this.saved = text;
  }

  /**
   * Saves the organization after a change. When it cannot be saved, the change is rolled back
   * and SimError INTERNAL is thrown, so the request (and the client's identical retry, which then
   * runs afresh) never reports a change that is not in the file.
   */
  commit(): void {
    const path = this.options.statePath;
    if (!path) return;
    const text = stateFileText(this.state);
    try {
      writeStateFile(path, text);
    } catch (err) {
      if (!(err instanceof StateFileError)) throw err;
      this.rollBack();
      const message = `${err.message}; the change was not made`;
      this.options.onSaveError?.(message);
      throw new SimError(GrpcCode.INTERNAL, `the simulator ${message}`);
    }
    this.saved = text;
  }

  /** Puts the organization back to the state file's last saved text. */
  private rollBack(): void {
    if (this.saved === undefined) return;
    Object.assign(this.state, JSON.parse(this.saved) as OrgState);
    this.ledger.reindex();
  }
}

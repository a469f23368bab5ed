/**
 * How `tail` asks for one deployment's logs, and what it keeps of the asking: the client's last
 * failure (it decides the exit status, as in every command: ../client-errors.ts) and, for one
 * window as plain text, the window printed straight from the response's bytes.
 */
import type { TurnkeyClient } from "../../../api/client.js";
import { chunksBytes } from "../../../api/response-body.js";
import { isPermanentFailure } from "../../../api/retry-decision.js";
import type { FetchLogs, FollowerStopError } from "../../../tail/follower.js";
import {
  debugLogFetch,
  decodeDebugLogs,
  fetchDebugLogChunks,
} from "../../../tail/wire/debug-log-fetch.js";
import { PlainWindowReader } from "../../../tail/wire/plain-window.js";
import { CliError } from "../../cli-error.js";
import { exitStatusOf, toCliError } from "../../client-errors.js";
import { fatalAdvice } from "../../follow-advice.js";

/** One window printed as plain text: with timestamps (in UTC or local time) or without. */
export interface PlainWindowPrint {
  timestamps: { utc: boolean } | undefined;
}

export class TailFetch {
  /** The client's last failure. */
  private lastFailure: unknown;
  /** The window as plain text, when the response was of the usual shape. */
  private renderedWindow: Buffer | undefined;
  readonly fetchLogs: FetchLogs;

  /**
   * `plain`: one window as plain text is printed straight from the response's bytes when it is
   * of the usual shape (tail/wire/plain-window.ts renders what the follower would print); the
   * follower is then handed the window without its lines. Any other response goes through the
   * follower as it came.
   */
  constructor(client: TurnkeyClient, deploymentId: string, plain: PlainWindowPrint | undefined) {
    if (plain) {
      this.fetchLogs = async (request, options) => {
        try {
          // The window is read as its chunks come, and printed once they are all in.
          const reader = new PlainWindowReader(plain.timestamps);
          const read = await fetchDebugLogChunks(client, deploymentId, request, {
            ...options,
            onBodyChunk: (chunk, offset, declared) => reader.feed(chunk, offset, declared),
          });
          this.renderedWindow = reader.finish(read.body, read.meta.serverDate);
          if (this.renderedWindow) return { data: { entries: [] }, meta: read.meta };
          const data = await decodeDebugLogs(chunksBytes(read.body));
          return { data, meta: read.meta };
        } catch (err) {
          return this.failing(err);
        }
      };
    } else {
      const follow = debugLogFetch(client, deploymentId);
      this.fetchLogs = (request, options) =>
        follow(request, options).catch((err) => this.failing(err));
    }
  }

  /** The window printed straight from the response's bytes, if it was. */
  get rendered(): Buffer | undefined {
    return this.renderedWindow;
  }

  /** The error a stopped follow ends the command with: as every command says the last failure. */
  stopError(err: FollowerStopError): unknown {
    // A failure no retry can help is said as every command says it.
    if (isPermanentFailure(this.lastFailure)) return toCliError(this.lastFailure);
    const advice = fatalAdvice(err.cause ?? this.lastFailure) ?? err.message;
    return new CliError(advice, exitStatusOf(this.lastFailure) ?? (err.unreachable ? 2 : 1));
  }

  private failing(err: unknown): never {
    this.lastFailure = err;
    throw err;
  }
}

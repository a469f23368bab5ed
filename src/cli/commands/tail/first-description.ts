/**
 * What the one deployment `tail` follows is, for `-o json` (`deploymentVersion`,
 * `deploymentRole`), read as over several deployments (../../feeds/deployment-list.ts
 * describeDeployments: one list_tvc_apps and one get_tvc_deployment, within a limit). It is asked
 * as the follow starts, beside the first poll; the batches that come before the answer are held
 * (FIRST_ANSWERS_WAIT_MS at most, as long as the first polls of several deployments wait for
 * theirs) and handed on together. A failure, or an answer about another deployment, leaves the
 * fields out; an answer after the wait describes the lines from then on.
 */

import type { DeploymentDescription } from "../../../logs/model/deployment-labels.js";
import type { LogEvent } from "../../../logs/model/log-line.js";
import { FIRST_ANSWERS_WAIT_MS } from "../../../tail/follow-set/first-answers.js";
import { sleep } from "../../../tail/poll-loop.js";

export type DescribeOne = (signal: AbortSignal) => Promise<DeploymentDescription | undefined>;

export class FirstDescription {
  private known: DeploymentDescription | undefined;
  /** Batches that came before the answer (or the end of the wait); undefined once let out. */
  private held: LogEvent[][] | undefined = [];
  private handOn: ((batch: LogEvent[]) => void) | undefined;
  private readonly released: Promise<void>;
  /** Aborts the requests (at stop, or when the follow ends before they answer). */
  private readonly requests = new AbortController();

  /** Asks at once; the wait ends at the answer, after `waitMs`, or when `stopping` aborts. */
  constructor(
    describe: DescribeOne,
    stopping: AbortSignal,
    waitMs = FIRST_ANSWERS_WAIT_MS,
    wait: (ms: number, signal: AbortSignal) => Promise<void> = sleep,
  ) {
    const signal = AbortSignal.any([stopping, this.requests.signal]);
    const answered = describe(signal).then(
      (d) => {
        if (!signal.aborted) this.known = d;
      },
      () => {},
    );
    const waited = new AbortController();
    const over = AbortSignal.any([signal, waited.signal]);
    this.released = Promise.race([answered, wait(waitMs, over)]).then(() => {
      waited.abort();
      this.letOut();
    });
  }

  /** What the deployment is, once its records said it. */
  description(): DeploymentDescription | undefined {
    return this.known;
  }

  /** A follower's batches through the wait: held until it is over, then as they come. */
  holding(handOn: (batch: LogEvent[]) => void): (batch: LogEvent[]) => void {
    this.handOn = handOn;
    return (batch) => {
      if (this.held) this.held.push(batch);
      else handOn(batch);
    };
  }

  /** Resolves once the wait is over and what it held was handed on. */
  settled(): Promise<void> {
    return this.released;
  }

  /**
   * The follow is over: what is held goes on now, and requests still out are let go (they would
   * keep the program from ending).
   */
  stop(): void {
    this.requests.abort();
    this.letOut();
  }

  /** What was held, handed on as one batch (one checkpoint record for all of it). */
  private letOut(): void {
    const held = this.held ?? [];
    this.held = undefined;
    if (held.length > 0) this.handOn?.(held.flat());
  }
}

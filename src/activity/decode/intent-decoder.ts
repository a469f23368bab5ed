/**
 * Decodings kept for a view that draws synchronously (the dashboard): `lookup` answers with what
 * is known now (decoded, still decoding, or nothing to decode) and starts a decoding the first
 * time an activity is asked about; when one finishes, subscribers are told, so the view is
 * rebuilt with it. Keyed by the activity's id and fingerprint (its content), so a record that
 * changes is decoded again; the newest MAX_KEPT are kept.
 */
import type { Activity } from "../../api/schemas.js";
import type { InterfaceSource } from "./contract-interfaces.js";
import { decodeActivity, hasDecoding } from "./decode-activity.js";
import type { DecodedIntent } from "./decoded-intent.js";

export type DecodeLookup =
  | { state: "none" }
  | { state: "decoding" }
  | { state: "done"; decoded: DecodedIntent };

const MAX_KEPT = 500;

const keyOf = (a: Pick<Activity, "id" | "fingerprint">) => `${a.id}\u0000${a.fingerprint}`;

export class IntentDecoder {
  private readonly kept = new Map<string, DecodeLookup>();
  private readonly waiting = new Map<string, Promise<DecodedIntent | undefined>>();
  private readonly listeners = new Set<() => void>();
  private changes = 0;

  constructor(private readonly interfaces?: InterfaceSource) {}

  /** Counts finished decodings: a view memoized on it is rebuilt when one lands. */
  get version(): number {
    return this.changes;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** What is known of the activity's decoding now; starts it when nothing is. */
  lookup(activity: Activity): DecodeLookup {
    if (!hasDecoding(activity)) return { state: "none" };
    const key = keyOf(activity);
    const known = this.kept.get(key);
    if (known) return known;
    void this.decode(activity);
    return this.kept.get(key) ?? { state: "decoding" };
  }

  /** The activity's decoding, once it is done (at once when it is known). */
  decode(activity: Activity): Promise<DecodedIntent | undefined> {
    const key = keyOf(activity);
    const known = this.kept.get(key);
    if (known?.state === "done") return Promise.resolve(known.decoded);
    if (known?.state === "none") return Promise.resolve(undefined);
    const running = this.waiting.get(key);
    if (running) return running;
    this.kept.set(key, { state: "decoding" });
    const work = decodeActivity(activity, { interfaces: this.interfaces }).then((decoded) => {
      this.waiting.delete(key);
      this.kept.set(key, decoded ? { state: "done", decoded } : { state: "none" });
      while (this.kept.size > MAX_KEPT) {
        const oldest = this.kept.keys().next().value;
        if (oldest === undefined) break;
        this.kept.delete(oldest);
      }
      this.changes += 1;
      for (const l of this.listeners) l();
      return decoded;
    });
    this.waiting.set(key, work);
    return work;
  }
}

/**
 * A verdict per row of a buffer read at any index (whether the view shows it, whether it holds a
 * search's match), remembered by the row's place so that buffer-wide work can stop at any row
 * (./work-budget.ts) and go on later without reading the rows it judged again. Places are
 * absolute (rows let go at the front do not move them); a change that moves rows (a late line
 * merged in, older lines indexed in front) is seen by the newest row no longer being where it
 * was, and every verdict is dropped.
 */

/** What a buffer must tell for its rows' places to be checked. */
export interface VerdictSource {
  getVersion(): number;
  size(): number;
  evicted(): number;
  at(index: number): { id: number } | undefined;
}

const UNKNOWN = 0;
const NO = 1;
const YES = 2;

export class RowVerdicts {
  /** Verdicts by absolute place minus `base`. */
  private verdicts = new Uint8Array(0);
  private base = 0;
  private version = -1;
  /** The newest row when last checked: its absolute place and id. */
  private newestAt = -1;
  private newestId = 0;
  /** Where judging the rest (`nextUnjudged`) goes on from, downwards; absolute. */
  private rest = Number.POSITIVE_INFINITY;

  /** Makes the verdicts agree with `source` as it is now (drops them when rows moved). */
  sync(source: VerdictSource): void {
    const version = source.getVersion();
    if (version === this.version) return;
    this.version = version;
    const evicted = source.evicted();
    if (this.newestAt >= 0) {
      const at = this.newestAt - evicted;
      if (at < 0 || at >= source.size() || source.at(at)?.id !== this.newestId) this.clear();
    }
    const last = source.size() - 1;
    this.newestAt = last < 0 ? -1 : evicted + last;
    this.newestId = last < 0 ? 0 : (source.at(last)?.id ?? 0);
    // Rows let go at the front: their verdicts go too, in large steps.
    if (evicted - this.base > 65_536) {
      const drop = Math.min(this.verdicts.length, evicted - this.base);
      this.verdicts = this.verdicts.slice(drop);
      this.base += drop;
    }
  }

  /** The verdict on row `index` (0 = oldest held), or undefined when not judged yet. */
  get(source: VerdictSource, index: number): boolean | undefined {
    const v = this.verdicts[source.evicted() + index - this.base];
    return v === YES ? true : v === NO ? false : undefined;
  }

  set(source: VerdictSource, index: number, verdict: boolean): void {
    const at = source.evicted() + index - this.base;
    if (at < 0) return;
    if (at >= this.verdicts.length) {
      const grown = new Uint8Array(Math.max(at + 1, this.verdicts.length * 2, 1024));
      grown.set(this.verdicts);
      this.verdicts = grown;
    }
    this.verdicts[at] = verdict ? YES : NO;
  }

  /**
   * The first row from `index` in direction `step` (+1 newer, -1 older) not judged false: a
   * run of rows known to be hidden is passed over without reading them. -1 or size() past the
   * ends.
   */
  skipFalse(source: VerdictSource, index: number, step: 1 | -1): number {
    const offset = source.evicted() - this.base;
    const size = source.size();
    const v = this.verdicts;
    let i = index;
    while (i >= 0 && i < size && v[offset + i] === NO) i += step;
    return i;
  }

  /**
   * The newest row not judged yet, going down from where the last call stopped (every row
   * judged: -1). What judging the whole buffer in slices walks.
   */
  nextUnjudged(source: VerdictSource): number {
    const evicted = source.evicted();
    let i = Math.min(source.size() - 1, this.rest - evicted);
    // Past the end of what is held, a row is not judged yet.
    while (i >= 0 && (this.verdicts[evicted + i - this.base] ?? UNKNOWN) !== UNKNOWN) i--;
    this.rest = evicted + i;
    return i;
  }

  private clear(): void {
    this.verdicts = new Uint8Array(0);
    this.base = 0;
    this.rest = Number.POSITIVE_INFINITY;
  }
}

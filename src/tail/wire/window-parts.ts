/**
 * A plain window's answer read in two parts, one on each thread (./window-thread.ts): where the
 * entries are split, and the parts' lines put back in the follower's order.
 *
 * The split is a comma between two entries as Turnkey writes them (`"},{"line":{"content":"`).
 * Those bytes cannot lie inside a JSON string (a string holds no unescaped quote), so in an
 * answer of the usual shape they are always between entries; in any other the parts' readers
 * decline, as one reader of the whole would. The first part is read from the body's start to
 * the comma, and must end there after an entry; the second from the entry after it to the end.
 */

/** The lines one reader wrote of some entries, in the response's order (see joinInFollowerOrder). */
export interface WindowPart {
  /** Each line and its newline. */
  lines: Buffer;
  /** Where each line starts in `lines`, and its sort key (the first `count` of each). */
  starts: Int32Array;
  keys: Float64Array;
  count: number;
  /** Whether the keys never go down. */
  sorted: boolean;
  /** The latest key (NaN if one was not a number; -Infinity if there is none). */
  newestKey: number;
}

/** Between an entry's end and the next one's start, as Turnkey's compact JSON has it. */
const BETWEEN = Buffer.from('"},{"line":{"content":"', "latin1");

/**
 * The comma after an entry, the first at or after `at` (the first byte of `BETWEEN` is the end
 * of the entry's last string), or -1 if there is none.
 */
export function entryComma(body: Buffer, at: number): number {
  const found = body.indexOf(BETWEEN, at);
  return found < 0 ? -1 : found + 2;
}

/** The parts' lines as one block, in the follower's order: timestamp, then the response's. */
export function joinInFollowerOrder(parts: readonly WindowPart[]): Buffer {
  let inOrder = true;
  let last = Number.NEGATIVE_INFINITY;
  for (const part of parts) {
    if (part.count === 0) continue;
    if (!part.sorted || (part.keys[0] as number) < last) inOrder = false;
    last = part.keys[part.count - 1] as number;
  }
  if (parts.length === 1 && inOrder) return (parts[0] as WindowPart).lines;
  const size = parts.reduce((n, p) => n + p.lines.length, 0);
  const joined = Buffer.allocUnsafe(size);
  if (inOrder) {
    let o = 0;
    for (const part of parts) o += part.lines.copy(joined, o);
    return joined;
  }
  // Every line, by part and then by place in it, sorted stably by key.
  const n = parts.reduce((k, p) => k + p.count, 0);
  const partOf = new Uint8Array(n);
  const lineOf = new Uint32Array(n);
  let k = 0;
  parts.forEach((part, p) => {
    for (let i = 0; i < part.count; i++, k++) {
      partOf[k] = p;
      lineOf[k] = i;
    }
  });
  const keyOf = (x: number) =>
    (parts[partOf[x] as number] as WindowPart).keys[lineOf[x] as number] as number;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // Stable: equal keys keep the response's order.
  order.sort((x, y) => keyOf(x) - keyOf(y) || x - y);
  let o = 0;
  for (let j = 0; j < n; j++) {
    const x = order[j] as number;
    const part = parts[partOf[x] as number] as WindowPart;
    const i = lineOf[x] as number;
    const end = i + 1 < part.count ? (part.starts[i + 1] as number) : part.lines.length;
    o += part.lines.copy(joined, o, part.starts[i] as number, end);
  }
  return joined;
}

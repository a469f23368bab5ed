/**
 * Where a saved log's bytes are: a regular file, read by position when a line is wanted (nothing
 * of it is kept in memory), or what a stream brought (standard input, a FIFO, a decompressed
 * `.gz`), held in the chunks it came in, the oldest let go when a cap is reached. Offsets are
 * absolute: a held source's first offset grows as it lets bytes go. A stream's bytes that no
 * line needs (the rest of a line cut at its cap) are passed over, never held: they leave a hole,
 * read as zeros.
 */
import { fstatSync } from "node:fs";
import { readLogAt } from "../../config/named-file.js";

export interface ByteSource {
  /** The first offset still held (0 for a file). */
  begin(): number;
  /** The offset after the last byte there is. */
  end(): number;
  /**
   * Bytes [start, end), fewer when the source no longer has them (a file cut short, bytes let
   * go). The buffer may be shared with the next read: use it before reading again.
   */
  read(start: number, end: number): Buffer;
}

/**
 * What a read of a file's lines takes at once (./saved-file.ts, a search): a read of at most this
 * many bytes goes into one buffer, reused between reads; a longer one (a long line) takes a buffer
 * of its own.
 */
export const READ_BYTES = 1024 * 1024;

export class FileBytes implements ByteSource {
  private size: number;
  private scratch: Buffer | undefined;

  constructor(
    readonly fd: number,
    size: number,
  ) {
    this.size = size;
  }

  begin(): number {
    return 0;
  }

  end(): number {
    return this.size;
  }

  /** Reads the file's size again (a file still being written); returns it. */
  refresh(): number {
    this.size = fstatSync(this.fd).size;
    return this.size;
  }

  read(start: number, end: number): Buffer {
    const length = Math.max(0, Math.min(end, this.size) - start);
    let buffer: Buffer;
    if (length <= READ_BYTES) {
      this.scratch ??= Buffer.allocUnsafe(READ_BYTES);
      buffer = this.scratch;
    } else {
      buffer = Buffer.allocUnsafe(length);
    }
    let got = 0;
    while (got < length) {
      const n = readLogAt(this.fd, buffer, got, length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    return buffer.subarray(0, got);
  }
}

export class HeldBytes implements ByteSource {
  private chunks: Buffer[] = [];
  /** The absolute offset of each chunk's first byte (holes may lie between chunks). */
  private starts: number[] = [];
  private first = 0;
  private last = 0;
  private stored = 0;

  begin(): number {
    return this.first;
  }

  end(): number {
    return this.last;
  }

  /** Bytes held now (holes not counted). */
  held(): number {
    return this.stored;
  }

  append(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.starts.push(this.last);
    this.last += chunk.length;
    this.stored += chunk.length;
  }

  /** `n` bytes that came and are not held: the end moves on, leaving a hole. */
  skip(n: number): void {
    if (this.chunks.length === 0) this.first += n;
    this.last += n;
  }

  /** Lets go of whole chunks that end at or before `offset`. */
  dropBefore(offset: number): void {
    let n = 0;
    while (
      n < this.chunks.length &&
      (this.starts[n] as number) + (this.chunks[n] as Buffer).length <= offset
    ) {
      this.stored -= (this.chunks[n] as Buffer).length;
      n++;
    }
    if (n === 0) return;
    this.chunks.splice(0, n);
    this.starts.splice(0, n);
    this.first = this.starts[0] ?? this.last;
  }

  read(start: number, end: number): Buffer {
    const from = Math.max(start, this.first);
    const to = Math.min(end, this.last);
    if (to <= from || this.chunks.length === 0) return Buffer.alloc(0);
    // The chunk holding `from` (or the hole before the next one): the last starting at or before it.
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.starts[mid] as number) <= from) lo = mid;
      else hi = mid - 1;
    }
    const chunk = this.chunks[lo] as Buffer;
    const at = from - (this.starts[lo] as number);
    if (at >= 0 && at + (to - from) <= chunk.length) return chunk.subarray(at, at + (to - from));
    // Across chunks (and holes, left zero).
    const out = Buffer.alloc(to - from);
    for (let k = lo; k < this.chunks.length; k++) {
      const c = this.chunks[k] as Buffer;
      const cs = this.starts[k] as number;
      if (cs >= to) break;
      const s = Math.max(from, cs);
      const e = Math.min(to, cs + c.length);
      if (e > s) c.copy(out, s - from, s - cs, e - cs);
    }
    return out;
  }
}

/**
 * Reads a response body as a stream, counting bytes: past the limit it stops, cancels the stream
 * and reports it, so a server that never ends its answer cannot grow memory without bound (the
 * per-attempt timeout bounds a slow one).
 *
 * The body is kept as the chunks it came in. A follower's answers (megabytes, every poll) are
 * turned into text chunk by chunk (`chunksText`), never joined in one block of bytes first: a
 * block that size comes from the C allocator, and once one is freed glibc stops giving such
 * blocks their own mapping, so its heap grows as they come and go (`BENCH_FEED=follower npm run
 * bench -- dashboard` reports the RSS this keeps down).
 */
import type { FetchResponse } from "./http-fetch.js";

/** A body read whole: its chunks in order and their total length. */
export interface BodyChunks {
  chunks: readonly Uint8Array[];
  byteLength: number;
}

export type BodyRead = ({ ok: true } & BodyChunks) | { ok: false; declared: boolean };

/** A body's bytes as text: UTF-8, a leading byte-order mark dropped (as Response.text() does). */
export function bodyText(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** A body's chunks as text: `bodyText` of their bytes joined, without joining the bytes. */
export function chunksText(body: BodyChunks): string {
  const { chunks } = body;
  if (chunks.length <= 1) return bodyText(chunks[0] ?? new Uint8Array(0));
  const decoder = new TextDecoder();
  const parts: string[] = new Array(chunks.length + 1);
  for (let i = 0; i < chunks.length; i++)
    parts[i] = decoder.decode(chunks[i] as Uint8Array, { stream: true });
  parts[chunks.length] = decoder.decode();
  return parts.join("");
}

/** A body's chunks as one block of bytes. */
export function chunksBytes(body: BodyChunks): Uint8Array {
  const { chunks } = body;
  if (chunks.length <= 1) return chunks[0] ?? new Uint8Array(0);
  return Buffer.concat(chunks, body.byteLength);
}

/**
 * Told of each chunk of a body as it is read (see readBodyWithin): where it starts in the body,
 * and the body's length if the response declared it.
 */
export type BodyChunkSeen = (
  chunk: Uint8Array,
  offset: number,
  declared: number | undefined,
) => void;

/**
 * Reads the body, at most `limitBytes` of it. `oneBlock`: the caller wants the bytes as one
 * block (chunksBytes), and a body of a declared length is copied into a block of that length
 * as it comes, instead of the chunks being kept and joined at the end (a second copy, after the
 * last byte, with every chunk held until then). `seen` is told of each chunk within the limit,
 * as it comes.
 */
export async function readBodyWithin(
  response: FetchResponse,
  limitBytes: number,
  oneBlock = false,
  seen?: BodyChunkSeen,
): Promise<BodyRead> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limitBytes) {
    await response.body?.cancel().catch(() => {});
    return { ok: false, declared: true };
  }
  if (!response.body) return { ok: true, chunks: [], byteLength: 0 };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const length = Number.isInteger(declared) && declared >= 0 ? declared : undefined;
  if (oneBlock && Number.isInteger(declared) && declared > 0) {
    const block = Buffer.allocUnsafe(declared);
    for (;;) {
      const { done, value } = await reader.read();
      if (done || value === undefined)
        return { ok: true, chunks: [block.subarray(0, total)], byteLength: total };
      if (total + value.byteLength > declared) {
        // More than the server declared (a transport that does not hold it to its length): the
        // bytes so far become the first chunk, and the rest is read as chunks, within the limit.
        chunks.push(block.subarray(0, total));
        total += value.byteLength;
        if (total > limitBytes) {
          chunks.length = 0;
          await reader.cancel().catch(() => {});
          return { ok: false, declared: false };
        }
        chunks.push(value);
        seen?.(value, total - value.byteLength, length);
        break;
      }
      block.set(value, total);
      seen?.(value, total, length);
      total += value.byteLength;
    }
  }
  for (;;) {
    const { done, value } = await reader.read();
    if (done || value === undefined) break;
    total += value.byteLength;
    if (total > limitBytes) {
      chunks.length = 0;
      await reader.cancel().catch(() => {});
      return { ok: false, declared: false };
    }
    chunks.push(value);
    seen?.(value, total - value.byteLength, length);
  }
  return { ok: true, chunks, byteLength: total };
}

/**
 * Reads a response body as a stream, counting bytes: past the limit it stops, cancels the stream
 * and reports it, so a server that never ends its answer cannot grow memory without bound (the
 * per-attempt timeout bounds a slow one).
 */
import type { FetchResponse } from "./http-fetch.js";

export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; declared: boolean };

/** A body's bytes as text: UTF-8, a leading byte-order mark dropped (as Response.text() does). */
export function bodyText(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

export async function readBodyWithin(
  response: FetchResponse,
  limitBytes: number,
): Promise<BodyRead> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limitBytes) {
    await response.body?.cancel().catch(() => {});
    return { ok: false, declared: true };
  }
  if (!response.body) return { ok: true, bytes: new Uint8Array(0) };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
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
  }
  const bytes = chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, total);
  return { ok: true, bytes };
}

/** Writing a JSON answer, stamped with the server's clock. */
import type { ServerResponse } from "node:http";

/**
 * A response body already serialized (large debug-log responses are built from cached parts).
 * `T` is what the text holds, for the type of the query that answers with it.
 */
export class RawJson<T = unknown> {
  declare readonly holds?: T;
  constructor(readonly text: string) {}
}

export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  serverNow: number,
  extra: Record<string, string> = {},
): void {
  const text = body instanceof RawJson ? body.text : JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
    Date: new Date(serverNow).toUTCString(),
    ...extra,
  });
  res.end(text);
}

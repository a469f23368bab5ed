/** Epoch milliseconds as the proto Timestamp JSON the API uses: `{seconds, nanos}` strings. */
export function protoTimestamp(ms: number): { seconds: string; nanos: string } {
  const seconds = Math.floor(ms / 1000);
  return { seconds: String(seconds), nanos: String(Math.floor((ms - seconds * 1000) * 1e6)) };
}

/** The flags every command takes: where the API is, which organization, which key. */
export interface GlobalFlags {
  baseUrl?: string | undefined;
  organization?: string | undefined;
  config?: string | undefined;
  keyName?: string | undefined;
  keysFolder?: string | undefined;
  authProxyUrl?: string | undefined;
  authProxyConfigId?: string | undefined;
  /** --max-response-size, in bytes. */
  maxResponseSize?: number | undefined;
}

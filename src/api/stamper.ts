/**
 * How the client signs a request: a stamper turns the exact body into one header, as Turnkey's
 * SDK stampers do (`stamp(body) → {stampHeaderName, stampHeaderValue}`, TStamper in
 * @turnkey/http), so any of theirs can be given to the client too. The API-key stamper is the
 * client's default; the simulator's passkey (../sim/crypto/webauthn-stamp.ts) is another.
 */
import { type ApiKeyPair, STAMP_HEADER, stampBody } from "./stamp.js";

export interface Stamp {
  stampHeaderName: string;
  stampHeaderValue: string;
}

export interface Stamper {
  /** The header for exactly this body (the client sends the same string). */
  stamp(body: string): Stamp | Promise<Stamp>;
}

/** X-Stamp with a P-256 API key, byte for byte as @turnkey/api-key-stamper makes it (./stamp.ts). */
export class ApiKeyStamper implements Stamper {
  constructor(private readonly pair: ApiKeyPair) {}

  stamp(body: string): Stamp {
    return { stampHeaderName: STAMP_HEADER, stampHeaderValue: stampBody(body, this.pair) };
  }
}

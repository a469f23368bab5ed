/**
 * What the simulated enclave app prints: a realistic mix of plain and JSON lines, request logs,
 * stack traces, unicode, repeated lines, and a few hostile lines with terminal escape sequences.
 */
import type { Random } from "../random.js";

export interface LineBurst {
  /** Lines printed together; each entry is one log line. */
  lines: string[];
  /** When true every line of the burst shares one timestamp (identical repeats). */
  sameTimestamp: boolean;
}

const SERVICES = ["signer", "policy", "http", "quorum", "ledger", "webhook"];
/** The service whose background errors (a stack trace now and then) every replica prints. */
const BACKGROUND_SERVICE = "ledger";
const ROUTES = ["/v1/sign", "/v1/health", "/v1/transfers", "/v1/keys", "/v1/policies/evaluate"];
const MESSAGES = [
  "processed batch",
  "settled transfer",
  "policy evaluated",
  "cache refreshed",
  "connection pool resized",
  "nonce reserved",
];
const UNICODE = [
  "用户登录成功 ✅ user=张伟",
  "Zahlung bestätigt für Müller — 12,50 €",
  "🚀 deploy finished in 4.2s",
  "naïve café résumé Ωmega ñandú",
  "שלום עולם: mixed RTL text 123",
  "combining: e\u0301 a\u0308 o\u0302",
  "emoji sequences: 👩‍💻 🇯🇵 👍🏽 and a zero\u200bwidth space",
  "全角テキスト：署名リクエストを受信しました",
];
/** Hostile lines: what a compromised or careless app could print. The sanitizer must meet them. */
export const HOSTILE_LINES = [
  "\u001b[2J\u001b[Hscreen cleared by the app",
  "\u001b]0;owned window title\u0007title change attempt",
  "\u001b]8;;https://evil.example/\u0007click me\u001b]8;;\u0007 (OSC 8 link)",
  "\u001b]52;c;ZWNobyBvd25lZA==\u0007clipboard write attempt (OSC 52)",
  "\u001bP1$qm\u001b\\DCS request",
  "\u009b31mC1 CSI red text",
  "invoice_\u202egnp.exe (bidi override)",
  "\u001b[31mERROR\u001b[0m coloured by the app",
  "bell\u0007 and backspace\u0008 and lone escape \u001b",
];

export function nextBurst(rng: Random, seq: number): LineBurst {
  const roll = rng.next();
  if (roll < 0.01) return { lines: [rng.pick(HOSTILE_LINES)], sameTimestamp: false };
  if (roll < 0.04) {
    const frames = rng.int(3, 6);
    // The background error every replica prints all day, from the one service that rejects in
    // the background (the incident's errors are other messages: ./debug-logs.ts).
    const lines = [
      `ERROR ${BACKGROUND_SERVICE}: unhandled rejection: Error: upstream timeout after 5000ms`,
    ];
    for (let i = 0; i < frames; i++) {
      lines.push(
        `    at ${rng.pick(["signTransaction", "evaluatePolicy", "fetchNonce", "handleRequest"])} (/app/dist/${rng.pick(SERVICES)}.js:${rng.int(10, 900)}:${rng.int(1, 40)})`,
      );
    }
    return { lines, sameTimestamp: false };
  }
  if (roll < 0.07) {
    const n = rng.int(2, 3);
    return { lines: Array.from({ length: n }, () => "heartbeat ok"), sameTimestamp: true };
  }
  if (roll < 0.1) return { lines: [rng.pick(UNICODE)], sameTimestamp: false };
  if (roll < 0.4) {
    const status = rng.chance(0.9) ? 200 : rng.pick([400, 401, 404, 429, 500, 503]);
    return {
      lines: [
        `10.0.${rng.int(0, 9)}.${rng.int(2, 250)} - - "${rng.pick(["GET", "POST"])} ${rng.pick(ROUTES)} HTTP/1.1" ${status} ${rng.int(80, 9000)} ${(rng.next() * 80).toFixed(1)}ms`,
      ],
      sameTimestamp: false,
    };
  }
  if (roll < 0.6) {
    const level = rng.chance(0.85) ? "info" : rng.chance(0.6) ? "warn" : "error";
    const record = {
      level,
      msg: rng.pick(MESSAGES),
      service: rng.pick(SERVICES),
      seq,
      requestId: rng.hex(6),
      latencyMs: rng.int(1, 400),
    };
    return { lines: [JSON.stringify(record)], sameTimestamp: false };
  }
  if (roll < 0.7) {
    // Structured logging in the other common shape: `severity`, `message` and nested fields.
    const severity = rng.chance(0.85) ? "INFO" : rng.chance(0.6) ? "WARNING" : "ERROR";
    const record = {
      severity,
      message: rng.pick(MESSAGES),
      fields: { service: rng.pick(SERVICES), seq, attempt: rng.int(1, 3) },
    };
    return { lines: [JSON.stringify(record)], sameTimestamp: false };
  }
  const level = rng.chance(0.85) ? "INFO" : rng.chance(0.6) ? "WARN" : "ERROR";
  return {
    lines: [
      `${level.padEnd(5)} ${rng.pick(SERVICES)}: ${rng.pick(MESSAGES)} id=${seq} items=${rng.int(1, 64)} in ${rng.int(1, 90)}ms`,
    ],
    sameTimestamp: false,
  };
}

/**
 * Fault injection, all off by default: added latency per request, a fraction of requests
 * answered by 500, 503, 429 (with Retry-After) or a dropped connection, and an outage: every
 * request of a stretch of time answered 503. Draws come from their own seeded generator, so
 * faults do not shift the generated data.
 */
import { GrpcCode } from "../../api/grpc-codes.js";
import { Random } from "../random.js";

export type Fault =
  | { kind: "drop" }
  | {
      kind: "status";
      status: number;
      body: { code: number; message: string; details: unknown[] };
      headers: Record<string, string>;
    };

export interface FaultOptions {
  seed: number;
  /** Fraction of requests that fail, 0..1. */
  rate: number;
  /** Added latency in ms, drawn uniformly from [min, max]. */
  latencyMs?: readonly [number, number] | undefined;
  /** Every request answered 503 from `fromMs` to `toMs` after the start (`elapsedMs` of next). */
  outage?: { fromMs: number; toMs: number } | undefined;
}

export class FaultInjector {
  private readonly rng: Random;

  constructor(private readonly options: FaultOptions) {
    this.rng = new Random(options.seed ^ 0x5eed);
  }

  /** Milliseconds to hold this request before answering (0 when latency is off). */
  delayMs(): number {
    const latency = this.options.latencyMs;
    if (!latency) return 0;
    const [min, max] = latency;
    return min + this.rng.next() * (max - min);
  }

  /** The fault this request meets, if any, `elapsedMs` after the simulator started. */
  next(elapsedMs = 0): Fault | undefined {
    const outage = this.options.outage;
    if (outage && elapsedMs >= outage.fromMs && elapsedMs < outage.toMs)
      return status(503, GrpcCode.UNAVAILABLE, "service unavailable (injected outage)");
    if (this.options.rate <= 0 || !this.rng.chance(this.options.rate)) return undefined;
    switch (this.rng.int(0, 3)) {
      case 0:
        return { kind: "drop" };
      case 1:
        return status(500, GrpcCode.INTERNAL, "internal error (injected fault)");
      case 2:
        return status(503, GrpcCode.UNAVAILABLE, "service unavailable (injected fault)");
      default:
        return status(429, GrpcCode.RESOURCE_EXHAUSTED, "too many requests (injected fault)", {
          "Retry-After": "1",
        });
    }
  }
}

function status(
  code: number,
  grpcCode: number,
  message: string,
  headers: Record<string, string> = {},
): Fault {
  return {
    kind: "status",
    status: code,
    body: { code: grpcCode, message, details: [] },
    headers,
  };
}

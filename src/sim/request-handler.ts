/**
 * One request to the simulator: faults first (latency, a dropped connection, an error answer),
 * then the operation at the path, its body read and checked, the caller's stamp verified, and the
 * answer or the error in Turnkey's shape.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { GrpcCode } from "../api/grpc-codes.js";
import { operationByPath } from "../api/operations.js";
import { readBody } from "./http/body.js";
import type { FaultInjector } from "./http/faults.js";
import { send } from "./http/respond.js";
import { invalidArgument, SimError } from "./http/sim-error.js";
import type { SimService } from "./service.js";

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A request body that is a JSON object (an empty body is `{}`). */
function jsonObject(raw: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = raw.length === 0 ? {} : JSON.parse(raw);
  } catch {
    throw invalidArgument("request body is not valid JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw invalidArgument("request body must be a JSON object");
  return body as Record<string, unknown>;
}

export class SimRequestHandler {
  constructor(
    private readonly service: SimService,
    private readonly faults: FaultInjector,
    private readonly log: (message: string) => void,
    /** Milliseconds since the simulator started (when an injected outage holds). */
    private readonly elapsedMs: () => number,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { service, faults } = this;
    const delay = faults.delayMs();
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    const fault = faults.next(this.elapsedMs());
    if (fault?.kind === "drop") {
      req.socket.destroy();
      return;
    }
    if (fault) {
      send(res, fault.status, fault.body, service.now(), fault.headers);
      return;
    }
    try {
      send(res, 200, await this.answer(req), service.now());
    } catch (err) {
      const simErr =
        err instanceof SimError ? err : new SimError(GrpcCode.INTERNAL, "internal error");
      if (!(err instanceof SimError)) this.log((err as Error)?.stack ?? String(err));
      send(res, simErr.httpStatus, simErr.body(), service.now());
    }
  }

  /** The operation's answer; throws a SimError for what Turnkey would refuse. */
  private async answer(req: IncomingMessage): Promise<unknown> {
    const { service } = this;
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const route = operationByPath(path);
    if (req.method !== "POST")
      throw new SimError(
        GrpcCode.UNIMPLEMENTED,
        `${req.method} is not supported; every operation is a POST`,
      );
    if (!route) throw new SimError(GrpcCode.NOT_FOUND, `no operation at ${path}`);
    const raw = await readBody(req);
    const record = jsonObject(raw);
    if (route.op.kind === "auth-proxy") {
      return service.walletKitConfig(header(req, "x-auth-proxy-config-id"));
    }
    const caller = service.authenticate({
      stamp: header(req, "x-stamp"),
      webAuthnStamp: header(req, "x-stamp-webauthn"),
      rawBody: raw,
      body: record,
    });
    const input = service.validate(route.name, route.op, record);
    return service.handle(route.name, input, caller, { rawBody: raw, body: record });
  }
}

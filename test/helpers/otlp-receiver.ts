/**
 * A local OTLP/HTTP logs receiver on a loopback port: it decodes each request (OTLP/JSON, as the
 * OpenTelemetry JS exporter sends it) into the official ExportLogsServiceRequest message, loaded
 * with protobufjs from the OTLP definitions in test/fixtures/opentelemetry-proto, and keeps every
 * log record with its resource. It can refuse requests (503) to play a collector that is down,
 * or answer them with another status (a 400: a refusal for good), or hold them on their way.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";

const PROTO_ROOT = fileURLToPath(new URL("../fixtures/opentelemetry-proto/", import.meta.url));

export interface ReceivedRecord {
  resource: Record<string, unknown>;
  attributes: Record<string, unknown>;
  body: unknown;
  timeUnixNano: string | undefined;
  observedTimeUnixNano: string | undefined;
  severityNumber: number | undefined;
  severityText: string | undefined;
}

export interface OtlpReceiver {
  url: string;
  records: ReceivedRecord[];
  requests: number;
  /** Answer 503 to every request while true. */
  down: boolean;
  /** Answer every request with this status while set. */
  failWith: number | undefined;
  /**
   * While set, a request that arrives is answered only once this settles, as the receiver is
   * then (down or not): an export held on its way.
   */
  held: Promise<void> | undefined;
  close(): Promise<void>;
}

type KeyValue = { key: string; value: Record<string, unknown> };

/** An AnyValue as a plain value (string, number, bool, or the raw object). */
function plain(value: Record<string, unknown> | undefined): unknown {
  if (!value) return undefined;
  if ("stringValue" in value) return value.stringValue;
  if ("intValue" in value) return String(value.intValue);
  if ("boolValue" in value) return value.boolValue;
  if ("doubleValue" in value) return value.doubleValue;
  return value;
}

const attributesOf = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, plain(kv.value)]));

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => PROTO_ROOT + target;
  await root.load("opentelemetry/proto/collector/logs/v1/logs_service.proto", { keepCase: false });
  const Request = root.lookupType("opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest");
  const receiver: OtlpReceiver = {
    url: "",
    records: [],
    requests: 0,
    down: false,
    failWith: undefined,
    held: undefined,
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      receiver.requests += 1;
      if (receiver.held) void receiver.held.then(answer);
      else answer();
    });
    const answer = () => {
      if (receiver.down || receiver.failWith !== undefined) {
        res.writeHead(receiver.down ? 503 : (receiver.failWith as number)).end();
        return;
      }
      if (req.url !== "/v1/logs" || req.method !== "POST") {
        res.writeHead(404).end();
        return;
      }
      const raw = Buffer.concat(chunks);
      const message = req.headers["content-type"]?.includes("json")
        ? Request.fromObject(JSON.parse(raw.toString("utf8")) as Record<string, unknown>)
        : Request.decode(raw);
      const problem = Request.verify(message);
      if (problem) {
        res
          .writeHead(400, { "content-type": "application/json" })
          .end(JSON.stringify({ message: problem }));
        return;
      }
      const request = Request.toObject(message, {
        longs: String,
        enums: Number,
        defaults: false,
      }) as {
        resourceLogs?: {
          resource?: { attributes?: KeyValue[] };
          scopeLogs?: {
            logRecords?: {
              timeUnixNano?: string;
              observedTimeUnixNano?: string;
              severityNumber?: number;
              severityText?: string;
              body?: Record<string, unknown>;
              attributes?: KeyValue[];
            }[];
          }[];
        }[];
      };
      for (const rl of request.resourceLogs ?? []) {
        const resource = attributesOf(rl.resource?.attributes);
        for (const sl of rl.scopeLogs ?? []) {
          for (const r of sl.logRecords ?? []) {
            receiver.records.push({
              resource,
              attributes: attributesOf(r.attributes),
              body: plain(r.body),
              timeUnixNano: r.timeUnixNano,
              observedTimeUnixNano: r.observedTimeUnixNano,
              severityNumber: r.severityNumber,
              severityText: r.severityText,
            });
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    };
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

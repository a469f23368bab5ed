/**
 * A hostile Turnkey API on loopback for the dashboard's end-to-end tests: well-formed responses
 * (they pass the schemas) whose strings carry escape sequences, with a megabyte log line and
 * Solana amounts sized to freeze a quadratic formatter. It does not check stamps.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Sets the terminal title (OSC 0), writes the clipboard (OSC 52), clears the screen (CSI). */
export const ATTACK =
  "\u001b]0;PWNED-TITLE\u0007\u001b]52;c;cHduZWQ=\u0007\u001b[2J\u009b7m\u202eRTL";

export const DEPLOYMENT_ID = `dep-${ATTACK}-1`;
export const BIG_LINE_CHARS = 1_000_000;

export interface HostileApi {
  url: string;
  close(): Promise<void>;
}

function responses(now: number): Record<string, unknown> {
  const ts = (ms: number) => ({ seconds: String(Math.floor(ms / 1000)), nanos: "0" });
  return {
    list_tvc_apps: {
      tvcApps: [
        {
          id: "app-1",
          organizationId: "org-1",
          name: `payments${ATTACK}`,
          liveDeploymentId: DEPLOYMENT_ID,
        },
      ],
    },
    list_tvc_app_deployments: {
      tvcDeployments: [
        { id: DEPLOYMENT_ID, organizationId: "org-1", appId: "app-1", debugMode: true },
      ],
    },
    get_tvc_deployment: {
      tvcDeployment: {
        id: DEPLOYMENT_ID,
        organizationId: "org-1",
        appId: "app-1",
        debugMode: true,
      },
    },
    get_tvc_deployment_debug_logs: {
      entries: [
        {
          line: { content: `INFO hello ${ATTACK}`, ts: ts(now - 3000) },
          replicaLabel: "replica 1/1",
        },
        {
          line: { content: `BIG ${"x".repeat(BIG_LINE_CHARS)} END`, ts: ts(now - 2000) },
          replicaLabel: "replica 1/1",
        },
        { line: { content: "INFO last line", ts: ts(now - 1000) }, replicaLabel: "replica 1/1" },
      ],
    },
    list_activities: {
      activities: [
        {
          id: "act-1",
          organizationId: "org-1",
          status: `ACTIVITY_STATUS_${ATTACK}`,
          type: `ACTIVITY_TYPE_${ATTACK}`,
          intent: {},
          result: {},
          votes: [],
          fingerprint: `sha256:${ATTACK}`,
          canApprove: false,
          canReject: false,
          createdAt: ts(now - 60_000),
          updatedAt: ts(now - 60_000),
        },
      ],
    },
    list_email_events: {
      emailEvents: [
        {
          id: "e-1",
          organizationId: "org-1",
          messageId: "m-1",
          eventType: `Bounce${ATTACK}`,
          fromAddress: "noreply@example.com",
          toAddress: "ops@example.com",
          timestamp: String(now - 5000),
          createdAt: String(now - 5000),
          details: {},
        },
      ],
    },
    list_sol_transaction_history: {
      transactions: [
        {
          signature: "sig-1",
          block: { number: "1", hash: "h", timestamp: new Date(now - 4000).toISOString() },
          status: "CONFIRMED",
          origin: "o",
          feePayer: "p",
          signers: [{ address: "p", writable: true }],
          fee: { amount: "5000", caip19: "c" },
          transfers: [
            {
              direction: "IN",
              amount: "1",
              counterparty: "Sender1111",
              asset: { caip19: "s", symbol: "HUGE", name: "Huge", decimals: 100_000 },
            },
            { direction: "OUT", amount: "7".repeat(100_000), counterparty: "Recv2222" },
          ],
        },
      ],
    },
    whoami: {
      organizationId: "org-1",
      organizationName: `org${ATTACK}`,
      userId: "u-1",
      username: `user${ATTACK}`,
    },
  };
}

export async function startHostileApi(): Promise<HostileApi> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const name = (req.url ?? "").split("/").pop() ?? "";
      const body = responses(Date.now())[name];
      if (body === undefined) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: 5, message: `no ${name} here`, details: [] }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json", date: new Date().toUTCString() });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

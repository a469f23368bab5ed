/** The dashboard's side-pane pollers, built on the client. */
import type { TurnkeyClient } from "../api/client.js";
import type { Activity, EmailEvent, SolTransaction } from "../api/schemas.js";
import { Poller } from "./poller.js";

export interface Feeds {
  activities: Poller<Activity[]>;
  email: Poller<EmailEvent[]> | undefined;
  solana: Poller<Map<string, SolTransaction[]>> | undefined;
}

export interface FeedOptions {
  intervalMs: number;
  emails: string[];
  solanaAddresses: string[];
  caip2: string;
}

type SolCaip2 =
  | "solana:mainnet"
  | "solana:devnet"
  | "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
  | "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";

export function createFeeds(client: TurnkeyClient, options: FeedOptions): Feeds {
  const interval = Math.max(1000, options.intervalMs);
  const activities = new Poller<Activity[]>({
    intervalMs: interval,
    fetch: async (signal) =>
      (await client.call("list_activities", { paginationOptions: { limit: "100" } }, { signal }))
        .activities,
  });
  const email =
    options.emails.length === 0
      ? undefined
      : new Poller<EmailEvent[]>({
          intervalMs: interval * 2,
          fetch: async (signal) => {
            const lists = await Promise.all(
              options.emails.map(
                async (address) =>
                  (
                    await client.call(
                      "list_email_events",
                      { email: address, paginationOptions: { limit: "100" } },
                      { signal },
                    )
                  ).emailEvents,
              ),
            );
            return lists.flat();
          },
        });
  const solana =
    options.solanaAddresses.length === 0
      ? undefined
      : new Poller<Map<string, SolTransaction[]>>({
          intervalMs: interval * 2,
          fetch: async (signal) => {
            const out = new Map<string, SolTransaction[]>();
            for (const address of options.solanaAddresses) {
              const res = await client.call(
                "list_sol_transaction_history",
                { address, caip2: options.caip2 as SolCaip2, paginationOptions: { limit: "50" } },
                { signal },
              );
              out.set(address, res.transactions);
            }
            return out;
          },
        });
  return { activities, email, solana };
}

export function startFeeds(feeds: Feeds): () => void {
  feeds.activities.start();
  feeds.email?.start();
  feeds.solana?.start();
  return () => {
    feeds.activities.stop();
    feeds.email?.stop();
    feeds.solana?.stop();
  };
}

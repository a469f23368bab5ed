/**
 * The follow flags, written once for the commands that follow deployments' logs (`tail`, `watch`,
 * `demo`): what to follow (--deployment, --app, --all, --max-deployments), how (--since,
 * --interval, --max-concurrent), the side panes' sources (--email, --sol-address, --caip2: the
 * dashboard's panes, `tail --events`) and the dashboard's (--no-bell, --clipboard). Each row says which
 * commands take it, and what differs in each (the help's words, a default, a parser). A command
 * picks its rows by name, in the order its help lists them, among its own (./flag-table.ts).
 */
import { collectText, integerFlag, intervalFlag, textFlag, timeBoundFlag } from "./flag-parsers.js";
import type { FlagRow } from "./flag-table.js";

export type FollowCommand = "tail" | "watch" | "demo";

/** A flag's row; `in` names the commands that take it, each with what differs there. */
interface FollowFlag extends Omit<FlagRow, "description"> {
  description?: string;
  in: Partial<Record<FollowCommand, Partial<FlagRow>>>;
}

const MAX_DEPLOYMENTS =
  "with --app or --all, the most deployments followed (1 to 10000, default 50): the first by app, live first, newest first; the rest are left out, said in one line";
const DASHBOARD_SINCE =
  "log history to start with: a duration back (30s, 10m, 1h; 1s to 7d; default 10m), a clock time (20:33, 20:33:05; today, local zone) or RFC 3339 (2026-11-25T20:33:05Z)";
const DASHBOARD_UNTIL =
  "refused: the dashboard follows new lines; read a range with tail --since … --until … or open FILE --until …";
const CLIPBOARD =
  "c copies the cursor's log line to the terminal's clipboard (OSC 52; some terminals refuse it)";

const FOLLOW_FLAGS = {
  deployment: {
    flags: "--deployment <id>",
    parse: collectText,
    in: {
      tail: {
        description:
          "deployment ID (default: deploymentId from the config file); repeat it to merge several",
      },
      watch: {
        description:
          "deployment to tail (default: deploymentId from the config file; else a picker); repeat it to merge several",
      },
      demo: {
        description:
          "simulated deployment to watch (default: the payments-signer's live one); repeat it to merge several",
      },
    },
  },
  app: {
    flags: "--app <app-id>",
    parse: textFlag,
    conflicts: ["deployment", "all"],
    in: {
      tail: {
        description:
          "every debug-mode deployment of this app (its id or name), new ones as they appear",
      },
      watch: {
        description:
          "every debug-mode deployment of this app (its id or name), merged (d shows one alone)",
      },
      demo: {
        description:
          "every debug-mode deployment of this simulated app (id or name, e.g. payments-signer), merged",
      },
    },
  },
  all: {
    flags: "--all",
    conflicts: "deployment",
    in: {
      tail: {
        description: "every debug-mode deployment of the organization, new ones as they appear",
      },
      watch: { description: "every debug-mode deployment of the organization, merged" },
      demo: { description: "every debug-mode deployment of the simulated organization, merged" },
    },
  },
  maxDeployments: {
    flags: "--max-deployments <n>",
    description: MAX_DEPLOYMENTS,
    parse: integerFlag(1, 10_000),
    in: { tail: {}, watch: {}, demo: {} },
  },
  maxConcurrent: {
    flags: "--max-concurrent <n>",
    description:
      "with several deployments, the most requests in flight at once (1 to 64, default 4)",
    parse: integerFlag(1, 64),
    in: { tail: {}, watch: {} },
  },
  since: {
    flags: "--since <time>",
    in: {
      tail: {
        description:
          "only lines from this time on: a duration back (30s, 10m, 1h; 1s to 7d), a clock time (20:33, 20:33:05; today, in the local zone or with --utc in UTC) or RFC 3339 (2026-11-25T20:33:05Z)",
        parse: timeBoundFlag(1000),
      },
      watch: {
        description: DASHBOARD_SINCE,
        parse: timeBoundFlag(1000),
      },
      demo: {
        description: DASHBOARD_SINCE,
        parse: timeBoundFlag(1000),
      },
    },
  },
  until: {
    flags: "--until <time>",
    in: {
      tail: {
        description:
          "only lines up to this time (as --since: 5m, 20:40, RFC 3339); not in the future, not with -f; without --since, the 10 minutes before it",
        parse: timeBoundFlag(0),
      },
      watch: { description: DASHBOARD_UNTIL, parse: timeBoundFlag(0) },
      demo: { description: DASHBOARD_UNTIL, parse: timeBoundFlag(0) },
    },
  },
  interval: {
    flags: "--interval <duration>",
    description: "base poll interval (250ms to 10m)",
    parse: intervalFlag,
    default: { value: 2000, shown: "2s" },
    in: { tail: {}, watch: {} },
  },
  email: {
    flags: "--email <addr>",
    parse: collectText,
    in: {
      watch: { description: "recipient whose email events to show (repeatable)" },
      tail: {
        description:
          "with --events, recipient whose email events to print (repeatable; default: the config file's emails)",
      },
    },
  },
  solAddress: {
    flags: "--sol-address <addr>",
    parse: collectText,
    in: {
      watch: { description: "wallet-account address whose Solana transfers to show (repeatable)" },
      tail: {
        description:
          "with --events, wallet-account address whose Solana transfers to print (repeatable; default: the config file's)",
      },
    },
  },
  caip2: {
    flags: "--caip2 <network>",
    // The networks are named by the check (watch-command.ts's checkCaip2) and completion, so
    // that `tail --help` loads no schemas.
    description:
      "Solana network as a CAIP-2 id: solana:mainnet (the default), solana:devnet or their genesis-hash forms",
    parse: textFlag,
    in: { watch: {}, tail: {} },
  },
  bell: {
    flags: "--no-bell",
    description: "do not ring the terminal bell when activities newly await votes",
    in: { watch: {}, demo: {} },
  },
  clipboard: {
    flags: "--clipboard",
    description: CLIPBOARD,
    in: { watch: {}, demo: {} },
  },
} satisfies Record<string, FollowFlag>;

export type FollowFlagName = keyof typeof FOLLOW_FLAGS;

/** The rows of `names` as `command` takes them, in that order; a name it does not take throws. */
export function followFlags(command: FollowCommand, ...names: FollowFlagName[]): FlagRow[] {
  return names.map((name) => {
    const { in: commands, ...row } = FOLLOW_FLAGS[name] as FollowFlag;
    const own = commands[command];
    if (!own) throw new Error(`${command} takes no --${name}`);
    const made = { ...row, ...own };
    if (made.description === undefined) throw new Error(`--${name} of ${command}: no description`);
    return made as FlagRow;
  });
}

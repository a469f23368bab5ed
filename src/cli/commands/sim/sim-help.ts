/** The text after `tvcwatch sim --help`'s flags: scenarios, what it serves, the organization. */
import { getOperation, operationNames } from "../../../api/operations.js";

/** The operations the simulator serves, by kind, from the operation table, wrapped for --help. */
export function servedOperationsText(): string {
  const wrap = (head: string, names: string[]) => {
    const lines: string[] = [];
    let line = head;
    for (const name of names) {
      const next = `${line} ${name},`;
      if (next.length > 96) {
        lines.push(line);
        line = `  ${name},`;
      } else line = next;
    }
    lines.push(line.replace(/,$/, "."));
    return lines.join("\n");
  };
  const of = (kind: string) => operationNames.filter((n) => getOperation(n).kind === kind);
  return [
    `It serves the ${operationNames.length} operations of the spec (tvcwatch call --list), and only those of`,
    "Turnkey's API; any other path answers NOT_FOUND in Turnkey's error shape, naming the path.",
    wrap("Activities:", of("activity")),
    wrap("Queries:", of("query")),
    wrap("Auth proxy:", of("auth-proxy")),
    "Each response has the fields, types and enums of Turnkey's published swagger.",
  ].join("\n");
}

/** A template: the help text after the flags. */
export function simHelpText(): string {
  return `
Scenarios: demo (steady traffic), quiet (little traffic), incident (busier; replica 2's errors
rise from 30 s, it crashes at 45 s and restarts 6 s later, get_app_status counting it not ready
meanwhile, and a fourth replica joins at 90 s).

Log lines are generated lazily: a line is generated (stored, and written to --truth-file) when
the first request arrives after its timestamp has passed on the server's clock. With
--ingest-lag a generated line stays invisible to queries until up to that long after its
timestamp, so the truth file can hold lines a query does not return yet.

${servedOperationsText()}

The organization starts with two root users, oncall-root (whose API key is printed at start-up)
and sre-lead (whose key --write-config writes to a second file beside the first), plus
ci-deployer; private keys on each curve, two wallets, two secrets, tags, session profiles, a
webhook endpoint, an OAuth 2.0 credential, and two set_organization_feature activities awaiting
the root quorum (one sre-lead approved, one that needs both root users).
Activities change it: keys created with create_api_keys, stamp_login or oauth stamp at once;
deleted or expired ones are refused. An identical body is the same activity (its fingerprint
is sha256: + the body's SHA-256). set_organization_feature waits in CONSENSUS_NEEDED until
--root-quorum root users approved it (the submitter's stamp counts); reject_activity rejects it.

Encrypted outputs (oauth credentialBundle, export_wallet exportBundle, export_secrets payloads)
use Turnkey's formats and are signed by the simulator's own enclave key, printed at start-up as
signerPublicKey (and written by --write-config): open them with @turnkey/crypto, passing it as
dangerouslyOverrideSignerPublicKey. Session JWTs (stamp_login, create_read_only_session) are
signed with the same key.

Without --state the organization lives in memory and a restart starts afresh from the seed.

Examples:
  tvcwatch sim --port 0 --write-config /tmp/sim.json
  tvcwatch sim --state ~/.local/state/tvcwatch-sim.json
  tvcwatch --config /tmp/sim.json tail -f
  tvcwatch --config /tmp/sim.sre-lead.json call approve_activity --body '{"fingerprint":"sha256:..."}'
  tvcwatch sim --faults 0.2 --latency 50-300 --clock-skew 45s --ingest-lag 3s --truth-file /tmp/truth.ndjson
  tvcwatch sim --outage 30s+20s    (every request answered 503 from 30 s after the start, for 20 s)`;
}

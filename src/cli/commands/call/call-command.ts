import type { Command } from "commander";
import { commandSummary } from "../../command-summaries.js";
import { textFlag } from "../../flag-parsers.js";
import type { CallFlags } from "./call-flags.js";

/**
 * `tvcwatch call`: its flags. What it does is in ../call/run-call.ts, loaded when it runs, so
 * `call --help` loads no client or schemas.
 */
export function registerCallCommand(program: Command): void {
  program
    .command("call")
    .summary(commandSummary("call"))
    .description(
      "Invoke any API operation and print its JSON response. For an activity the body is its `parameters`; for a query, its fields beyond organizationId.",
    )
    .argument(
      "[operation]",
      "operation name, e.g. whoami or get_tvc_deployment_debug_logs (see --list)",
    )
    .option("--body <json>", "request body as JSON, or - to read it from standard input")
    .option("--body-file <file>", "read the request body from a file", textFlag)
    .option("--generate-app-proofs", "ask an activity to return app proofs")
    .option(
      "--reveal-secrets",
      "print session tokens, credential and export bundles, secret payloads and OIDC tokens (redacted otherwise)",
    )
    .option("--list", "list every operation with its kind")
    .addHelpText(
      "after",
      '\nExamples:\n  tvcwatch call whoami\n  tvcwatch call get_tvc_deployment_debug_logs --body \'{"deploymentId":"...","tailLines":20}\'\n' +
        "  echo '{}' | tvcwatch call create_read_only_session --body -\n\n" +
        "Session tokens, bundles, secret payloads and OIDC tokens are redacted in what is printed\n" +
        "unless --reveal-secrets is given (then keep the output out of shared logs).\n\n" +
        "Exit status: 0 success; 1 API error, invalid body or unexpected response;\n" +
        "2 network failure after retries, or a usage error.",
    )
    .action(async (operation: string | undefined, flags: CallFlags, cmd: Command) => {
      const { runCall } = await import("./run-call.js");
      await runCall(operation, flags, cmd);
    });
}

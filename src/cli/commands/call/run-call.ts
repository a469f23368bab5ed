/**
 * What `tvcwatch call` does once its flags are parsed: read the body, check it against the
 * operation's schema, call, print the response with secrets redacted. Loaded only when `call`
 * runs (its flags are in commands/call.ts, which `call --help` loads alone).
 */
import type { Command } from "commander";
import type { OperationName } from "../../../api/operations.js";
import { getOperation, isOperationName, operationNames } from "../../../api/operations.js";
import { redactSecrets } from "../../../api/secret-fields.js";
import { validateInput } from "../../../api/validation.js";
import { parseJsonQuietly } from "../../../config/json-syntax.js";
import { READ_LIMITS, readNamedFile } from "../../../config/named-file.js";
import { DEBUG_LOG_FAST_PATH } from "../../../tail/wire/guards.js";
import { sayOnStderr } from "../../../text/stderr.js";
import { stringifyForTerminal } from "../../../text/terminal-json.js";
import { CliError } from "../../cli-error.js";
import { retryNotice, toCliError } from "../../client-errors.js";
import { clientFor, configFromCommand } from "../../context.js";
import { closeMatches } from "../../suggest.js";
import type { CallFlags } from "./call-flags.js";

function listOperations(): string {
  const width = Math.max(...operationNames.map((n) => n.length));
  return operationNames
    .map((name) => {
      const op = getOperation(name);
      return `${name.padEnd(width)}  ${op.kind.padEnd(10)}  ${op.summary}`;
    })
    .join("\n");
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function readBody(flags: CallFlags): Promise<unknown> {
  if (flags.body !== undefined && flags.bodyFile !== undefined) {
    throw new CliError("give the body once: --body or --body-file, not both", 2);
  }
  let text: string;
  let source: string;
  if (flags.bodyFile !== undefined) {
    source = `--body-file ${flags.bodyFile}`;
    try {
      text = readNamedFile(flags.bodyFile, "--body-file", READ_LIMITS.body).text;
    } catch (err) {
      throw new CliError((err as Error).message, 2);
    }
  } else if (flags.body === "-") {
    source = "--body - (standard input)";
    text = await readStdin();
  } else if (flags.body !== undefined) {
    source = "--body";
    text = flags.body;
  } else {
    return {};
  }
  try {
    // The body may carry key material: a syntax error gives its place, never an excerpt.
    return parseJsonQuietly(text, source);
  } catch (err) {
    throw new CliError((err as Error).message, 2);
  }
}

export async function runCall(
  operation: string | undefined,
  flags: CallFlags,
  cmd: Command,
): Promise<void> {
  if (flags.list) {
    process.stdout.write(`${listOperations()}\n`);
    return;
  }
  if (!operation) throw new CliError("name an operation (tvcwatch call --list shows them)", 2);
  if (!isOperationName(operation)) {
    const near = closeMatches(operation, operationNames);
    throw new CliError(
      `unknown operation ${JSON.stringify(operation)}${near.length ? `; did you mean ${near.join(", ")}?` : ""} (tvcwatch call --list shows all)`,
      2,
    );
  }
  const name: OperationName = operation;
  const op = getOperation(name);
  if (flags.generateAppProofs && op.kind !== "activity") {
    throw new CliError(`--generate-app-proofs applies to activities; ${name} is a ${op.kind}`, 2);
  }
  const body = await readBody(flags);
  // The body is checked before credentials are looked for, so its error comes first.
  try {
    validateInput(name, body);
  } catch (err) {
    throw toCliError(err);
  }
  const config = await configFromCommand(cmd, {
    needApiKey: op.kind !== "auth-proxy",
    needOrganization: op.kind !== "auth-proxy",
  });
  const client = clientFor(config);
  let response: unknown;
  try {
    response = await client.callDynamic(name, body, {
      generateAppProofs: flags.generateAppProofs,
      // A large debug-log answer is checked by its guards, as tail checks it (other operations
      // ignore it).
      fastPath: DEBUG_LOG_FAST_PATH,
      onRetry: (info) => {
        const notice = retryNotice(info);
        if (notice) sayOnStderr(notice);
      },
    });
  } catch (err) {
    throw toCliError(err);
  }
  const shown = flags.revealSecrets ? { value: response, fields: [] } : redactSecrets(response);
  const text = stringifyForTerminal(shown.value, process.stdout.isTTY ? 2 : undefined);
  process.stdout.write(`${text}\n`);
  if (shown.fields.length > 0) {
    sayOnStderr(
      `redacted ${shown.fields.join(", ")}; add --reveal-secrets to print ${shown.fields.length > 1 ? "them" : "it"}`,
    );
  }
}

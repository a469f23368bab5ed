import type { Command } from "commander";
import { LNAV_FORMAT_NAME, lnavFormatText } from "../../../logs/lnav-format.js";
import { commandSummary } from "../../command-summaries.js";

export function registerLnavFormatCommand(program: Command): void {
  program
    .command("lnav-format")
    .summary(commandSummary("lnav-format"))
    .description(
      `Print an lnav log format (JSON) for the NDJSON that \`tail -o json\` prints and the dashboard's S saves: lnav then reads each line's time, level and content, with the replica and the deployment as identifiers (SQL table ${LNAV_FORMAT_NAME}).`,
    )
    .addHelpText(
      "after",
      `
Install:
  tvcwatch lnav-format > tvcwatch.json && lnav -i tvcwatch.json
  lnav app.ndjson`,
    )
    .action(() => {
      process.stdout.write(lnavFormatText());
    });
}

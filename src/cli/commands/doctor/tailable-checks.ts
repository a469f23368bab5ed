/** Doctor's lines on what can be tailed: the TVC deployments listed, and the one asked for. */
import type { Sourced } from "../../../config/setting-sources.js";
import type { DeploymentChoice } from "../../../feeds/deployment-list.js";
import { listDeploymentChoices } from "../../../feeds/deployment-list.js";
import { apiFailure } from "./api-failure.js";
import type { CheckResult } from "./check.js";
import { skip } from "./check.js";
import { deploymentCheck, tvcCheck } from "./deployment-checks.js";
import type { ReachedApi } from "./round-trip-check.js";

export async function tailableChecks(
  reached: ReachedApi | undefined,
  deploymentId: Sourced<string> | undefined,
): Promise<CheckResult[]> {
  if (!reached) {
    const checks = [skip("tvc", "TVC deployments", "not listed without an API answer")];
    if (deploymentId)
      checks.push(skip("deployment", "tail deployment", "not checked without an API answer"));
    return checks;
  }
  let choices: DeploymentChoice[];
  try {
    choices = await listDeploymentChoices(reached.client);
  } catch (err) {
    const { baseUrl, baseWhat, organizationId, pair } = reached;
    const problem = apiFailure(err, baseUrl, baseWhat, organizationId, pair);
    const checks = [{ ...problem, id: "tvc", title: "TVC deployments" }];
    if (deploymentId) {
      checks.push(
        skip("deployment", "tail deployment", "not checked: the deployments could not be listed"),
      );
    }
    return checks;
  }
  const checks = [tvcCheck(choices)];
  if (deploymentId) checks.push(deploymentCheck(deploymentId, choices));
  return checks;
}

/** Run the CLI in this process, capturing what it writes. */
import { runCli } from "../../src/cli/run-cli.js";
import { REPO_ROOT } from "./fixtures.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `graph-retrieve <argv…>` from `cwd` (default: the repo), stderr not a terminal. */
export async function runCliInProcess(argv: string[], cwd: string = REPO_ROOT): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    cwd,
    isStderrTty: false,
  });
  return { code, stdout, stderr };
}

import type { Diagnostic } from "../index.js";
import type { CliIo } from "./run-cli.js";

/** Warnings on stderr, one line each: `warning: <path>: <message>`. Unresolved imports are summed up, not listed. */
export function reportDiagnostics(diagnostics: readonly Diagnostic[], io: CliIo): void {
  let unresolved = 0;
  for (const diagnostic of diagnostics) {
    if (diagnostic.kind === "unresolved") {
      unresolved++;
      continue;
    }
    io.stderr(`warning: ${diagnostic.path ? `${diagnostic.path}: ` : ""}${diagnostic.message}\n`);
  }
  if (unresolved > 0) {
    io.stderr(`warning: ${unresolved} import specifier(s) did not resolve to a file under the root (graph --format json lists them)\n`);
  }
}

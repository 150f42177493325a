import type { Diagnostic } from "../index.js";
import { isAssetImportDiagnostic } from "../faces.js";
import type { CliIo } from "./cli-io.js";

/**
 * Warnings on stderr, one line each: `warning: <path>: <message>`.
 * Unresolved imports are summed up, not listed, and only those of code: an
 * asset import (`./app.css`, `./inter.woff2`, `./data.json`) that leads to no
 * source file is expected (the graph holds code), so it is counted apart,
 * inside the code line, and alone warns of nothing.
 */
export function reportDiagnostics(diagnostics: readonly Diagnostic[], io: CliIo): void {
  let code = 0;
  let assets = 0;
  for (const diagnostic of diagnostics) {
    if (diagnostic.kind === "unresolved") {
      if (isAssetImportDiagnostic(diagnostic)) assets++;
      else code++;
      continue;
    }
    io.stderr(`warning: ${diagnostic.path ? `${diagnostic.path}: ` : ""}${diagnostic.message}\n`);
  }
  if (code > 0) {
    const aside = assets > 0 ? `; ${assets} asset import${assets === 1 ? " (.css, .woff2, .json…) is" : "s (.css, .woff2, .json…) are"} not code and not counted` : "";
    io.stderr(`warning: ${code} import specifier(s) of code did not resolve to a file under the root (graph --format json lists them${aside})\n`);
  }
}

/** Import facts built in code, for the graph tests that assemble small hand-made codebases. */
import type { ImportFact } from "../../src/types.js";

/** `export * from "specifier"`. */
export const star = (specifier: string): ImportFact => ({ specifier, kind: "reexport", names: [{ name: "*", alias: "*" }], typeOnly: false, line: 1 });

/** `import { ...names } from "specifier"`. */
export const named = (specifier: string, ...names: string[]): ImportFact => ({
  specifier,
  kind: "static",
  names: names.map((name) => ({ name, alias: name })),
  typeOnly: false,
  line: 1,
});

/**
 * Retrievals the render tests share: both pattern fixtures with their own
 * tasks, and a generated project whose top file is large (about 1,800
 * lines), each retrieved once per test file.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRetriever, type CodeGraph, type RetrievalResult } from "../../src/index.js";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface Retrieval {
  name: string;
  root: string;
  result: RetrievalResult;
  codeGraph: CodeGraph;
  readFile: (path: string) => Promise<string>;
}

/**
 * The pattern's tasks. auth-service's names the file it is about, as a user
 * often does: the renderers need a context file with gaps, and the pattern's
 * own wording ("Fix the authentication token expiry bug") leaves every file
 * of this codebase without history below the medium band (the ranker is
 * calibrated on real commits, whose top file is right about 3 times in 10).
 */
export const TASKS = {
  "api-gateway": "Add rate limiting to the API endpoints",
  "auth-service": "Fix the authentication token expiry bug in src/auth/auth.ts",
} as const;

const cache = new Map<string, Promise<Retrieval>>();

async function retrieveIn(name: string, root: string, task: string): Promise<Retrieval> {
  const retriever = await createRetriever({ root });
  const result = await retriever.retrieve(task);
  return {
    name,
    root,
    result,
    codeGraph: retriever.codeGraph,
    readFile: async (path) => readFileSync(join(retriever.codeGraph.root, path), "utf8"),
  };
}

/** The retrieval of a pattern fixture for its task (root as given: `fixtures/<name>`). */
export function fixtureRetrieval(name: keyof typeof TASKS): Promise<Retrieval> {
  let pending = cache.get(name);
  if (!pending) {
    pending = retrieveIn(name, join(REPO_ROOT, "fixtures", name), TASKS[name]).then((r) => ({ ...r, result: { ...r.result, root: `fixtures/${name}` } }));
    cache.set(name, pending);
  }
  return pending;
}

/** The generated big file's source: 32 functions of 57 lines, half named for the task (invoice), half not (ledger). */
export function bigFileSource(): string {
  const parts = ["/** Invoice engine: totals, rounding and ledger helpers. */", 'import { roundCents } from "./rounding.js";', ""];
  for (let i = 0; i < 32; i++) {
    const name = i % 2 === 0 ? `invoiceTotalStep${i}` : `ledgerHelper${i}`;
    parts.push(`/** Step ${i} of the invoice total. */`);
    parts.push(`export function ${name}(total: number): number {`);
    for (let j = 0; j < 53; j++) parts.push(`  total = roundCents(total * 1.0${j % 10} + ${j + i}); // line ${j} \`tick\``);
    parts.push("  return total;", "}", "");
  }
  return `${parts.join("\n")}\n`;
}

/** The temporary projects generated so far (see removeGeneratedRoots). */
const generatedRoots: string[] = [];

/** Remove the projects the helpers generated: a test file that uses them calls it in afterAll. */
export function removeGeneratedRoots(): void {
  for (const root of generatedRoots.splice(0)) rmSync(root, { recursive: true, force: true });
  cache.delete("big-file");
}

/** A generated project whose top file for "Fix the invoice total rounding" is a large file. */
export function bigFileRetrieval(): Promise<Retrieval> {
  let pending = cache.get("big-file");
  if (!pending) {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "graph-retrieve-render-")));
    generatedRoots.push(root);
    mkdirSync(join(root, "src", "billing"), { recursive: true });
    writeFileSync(join(root, "src", "billing", "invoice-engine.ts"), bigFileSource());
    writeFileSync(join(root, "src", "billing", "rounding.ts"), "/** Round to whole cents. */\nexport function roundCents(value: number): number {\n  return Math.round(value * 100) / 100;\n}\n");
    writeFileSync(
      join(root, "src", "billing", "invoice.ts"),
      'import { invoiceTotalStep0 } from "./invoice-engine.js";\n\n/** The total of an invoice, rounded. */\nexport function invoiceTotal(lines: number[]): number {\n  return lines.reduce((sum, line) => invoiceTotalStep0(sum, line), 0);\n}\n',
    );
    writeFileSync(join(root, "src", "log.ts"), "export function log(message: string): void {\n  console.log(message);\n}\n");
    pending = retrieveIn("big-file", root, "Fix the invoice total rounding");
    cache.set("big-file", pending);
  }
  return pending;
}

export function hasDot(): boolean {
  return spawnSync("dot", ["-V"], { stdio: "ignore" }).status === 0;
}

/** Graphviz's own `dot -Tsvg`: stdout, stderr and exit status. */
export function renderWithDot(dot: string): { svg: string; stderr: string; status: number | null } {
  const run = spawnSync("dot", ["-Tsvg"], { input: dot, encoding: "utf8" });
  return { svg: run.stdout, stderr: run.stderr, status: run.status };
}

/** The SVG `<g class="node">` groups by their `<title>` (Graphviz writes the node id there, XML-escaped). */
export function svgNodes(svg: string): Map<string, string> {
  const nodes = new Map<string, string>();
  for (const match of svg.matchAll(/<g id="[^"]*" class="node">\s*<title>([^<]*)<\/title>([\s\S]*?)<\/g>/g)) {
    nodes.set(unescapeXml(match[1] ?? ""), match[2] ?? "");
  }
  return nodes;
}

function unescapeXml(text: string): string {
  return text.replace(/&#45;/g, "-").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
}

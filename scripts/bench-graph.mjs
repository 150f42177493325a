#!/usr/bin/env node
// Graph benchmark: our buildGraph against dependency-cruiser on real packages.
//
//   npm run bench:graph [-- --runs 3] [--package rxjs,effect]
//
// For each package (fetched with `npm pack` into .bench-cache/graph/<name>):
// 1. time: buildGraph over src/** and dependency-cruiser over src, each in a
//    fresh child process (cold: Node start, module load, scan, parse, resolve),
//    --runs times (default 3), median wall time reported;
// 2. edges: the set of file → file edges each tool finds (root-relative paths,
//    both ends source files), their intersection over each side, and the
//    disagreements grouped by kind with examples.
// Results: a table on stdout and .bench-cache/graph/results.json.
// The same file is its own child: `--child ours|edges ROOT`.
//
// dependency-cruiser runs as its CLI with --no-config, --do-not-follow
// node_modules, --ts-config when the package ships a tsconfig.json, and
// twice: with --ts-pre-compilation-deps (keeps type-only imports: the
// like-for-like run, used for the edge comparison) and without (its default,
// which drops imports that vanish when TypeScript compiles).

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describeTree, snapshotBuild } from "./snapshot-build.mjs";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CACHE_DIR = path.join(PROJECT_ROOT, ".bench-cache", "graph");
const RESULTS_FILE = path.join(CACHE_DIR, "results.json");
const DIST_INDEX = path.join(PROJECT_ROOT, "dist", "index.js");
/** The frozen copy of the build the children load (see snapshot-build.mjs). */
const BUILD_COPY = path.join(CACHE_DIR, "build");
const DEPCRUISE_BIN = path.join(PROJECT_ROOT, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
const SOURCE_DIR = "src";
const INCLUDE = [`${SOURCE_DIR}/**`];
const DEFAULT_RUNS = 3;
const EXAMPLES_PER_KIND = 4;
const CHILD_TIMEOUT_MS = 10 * 60 * 1000;

/** The packages measured; pinned so figures stay comparable (effect: latest 3.x when written). */
const PACKAGES = [
  { name: "rxjs", spec: "rxjs@7.8.1" },
  { name: "effect", spec: "effect@3.22.4" },
];

// ---------------------------------------------------------------- child modes

async function runChild(mode, root, build) {
  const { buildGraph } = await import(pathToFileURL(path.join(build, "dist", "index.js")).href);
  const started = performance.now();
  const codeGraph = await buildGraph(root, { include: INCLUDE });
  const millis = performance.now() - started;
  if (mode === "ours") {
    process.stdout.write(JSON.stringify({ millis, stats: codeGraph.stats }) + "\n");
    return;
  }
  process.stdout.write(JSON.stringify(await collectOurEdges(codeGraph, build)) + "\n");
}

/**
 * Our edges: `graph` = every import/reexport edge between two file nodes
 * (barrel-derived ones included); `facts` = each file's import facts with the
 * file or package our resolver gave them (the direct edges, like depcruise's).
 */
async function collectOurEdges(codeGraph, build) {
  const { graph } = codeGraph;
  const isFile = (id) => graph.hasNode(id) && graph.getNodeAttribute(id, "kind") === "file";
  const graphEdges = [];
  graph.forEachEdge((_key, attributes, source, target) => {
    if ((attributes.kind === "import" || attributes.kind === "reexport") && isFile(source) && isFile(target)) {
      graphEdges.push({ source, target, kind: attributes.kind, importKind: attributes.importKind, typeOnly: Boolean(attributes.typeOnly), via: attributes.via ?? [] });
    }
  });
  let facts = null;
  let factsNote = null;
  try {
    const { createResolver } = await import(pathToFileURL(path.join(build, "dist", "resolve", "index.js")).href);
    const resolver = createResolver(codeGraph.root, [...codeGraph.files.keys()]);
    facts = [];
    for (const [file, parsed] of codeGraph.files) {
      for (const fact of parsed.imports) {
        const resolution = resolver.resolve(file, fact.specifier, fact.kind);
        facts.push({ file, specifier: fact.specifier, kind: fact.kind, typeOnly: fact.typeOnly, line: fact.line, target: resolution.target ?? null });
      }
    }
  } catch (error) {
    factsNote = `direct edges approximated by graph edges without "via" (resolver not loadable: ${error.message})`;
  }
  return { files: [...codeGraph.files.keys()], graphEdges, facts, factsNote, stats: codeGraph.stats };
}

// ---------------------------------------------------------------- helpers

function say(line) {
  process.stdout.write(line + "\n");
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Run a command; resolves with wall time, stdout, stderr and exit code (never rejects). */
function runTimed(command, args, cwd) {
  return new Promise((resolve) => {
    const started = performance.now();
    let child;
    try {
      child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      resolve({ code: null, error: error.message, stdout: "", stderr: "", seconds: 0 });
      return;
    }
    const out = [];
    const err = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => err.push(chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), CHILD_TIMEOUT_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, error: error.message, stdout: "", stderr: "", seconds: 0 });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        error: code === 0 ? null : `exit ${code ?? signal}`,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        seconds: (performance.now() - started) / 1000,
      });
    });
  });
}

function lastLine(text) {
  const lines = String(text).trim().split("\n");
  return lines[lines.length - 1] ?? "";
}

function failure(result) {
  return `${result.error}${result.stderr ? `: ${lastLine(result.stderr).slice(0, 200)}` : ""}`;
}

// ---------------------------------------------------------------- fetch

/** Unpack `npm pack <spec>` into .bench-cache/graph/<name>, reused while the spec is unchanged. */
function fetchPackage(pkg) {
  const dir = path.join(CACHE_DIR, pkg.name);
  const marker = path.join(dir, ".bench-spec");
  if (fs.existsSync(marker) && fs.readFileSync(marker, "utf8").trim() === pkg.spec) return dir;
  const work = fs.mkdtempSync(path.join(CACHE_DIR, ".pack-"));
  try {
    const pack = spawnSync("npm", ["pack", pkg.spec, "--json", "--ignore-scripts", "--pack-destination", work], { encoding: "utf8" });
    if (pack.status !== 0) throw new Error(`npm pack ${pkg.spec} failed: ${lastLine(pack.stderr)}`);
    const tarball = fs.readdirSync(work).find((f) => f.endsWith(".tgz"));
    if (!tarball) throw new Error(`npm pack ${pkg.spec} wrote no tarball`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const untar = spawnSync("tar", ["xzf", path.join(work, tarball), "-C", dir, "--strip-components=1"], { encoding: "utf8" });
    if (untar.status !== 0) throw new Error(`tar failed on ${tarball}: ${lastLine(untar.stderr)}`);
    fs.writeFileSync(marker, pkg.spec + "\n");
    return dir;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- the tools

async function timeOurs(root, runs, build) {
  const walls = [];
  const inside = [];
  let stats = null;
  for (let i = 0; i < runs; i++) {
    const result = await runTimed(process.execPath, [fileURLToPath(import.meta.url), "--child", "ours", root, build], root);
    if (result.error) return { error: failure(result) };
    let report;
    try {
      report = JSON.parse(lastLine(result.stdout));
    } catch {
      return { error: `no JSON report on stdout (got ${JSON.stringify(lastLine(result.stdout).slice(0, 80))})` };
    }
    walls.push(result.seconds);
    inside.push(report.millis / 1000);
    stats = report.stats;
  }
  return { seconds: median(walls), runs: walls, inProcessSeconds: median(inside), stats };
}

function depcruiseArgs(root, outFile, preCompilation) {
  const args = [DEPCRUISE_BIN, SOURCE_DIR, "--no-config", "--output-type", "json", "--output-to", outFile, "--do-not-follow", "node_modules", "--progress", "none"];
  if (fs.existsSync(path.join(root, "tsconfig.json"))) args.push("--ts-config", "tsconfig.json");
  if (preCompilation) args.push("--ts-pre-compilation-deps");
  return args;
}

async function timeDepcruise(root, runs, preCompilation, outFile) {
  if (!fs.existsSync(DEPCRUISE_BIN)) return { error: `dependency-cruiser not installed (${path.relative(PROJECT_ROOT, DEPCRUISE_BIN)} missing)` };
  const walls = [];
  for (let i = 0; i < runs; i++) {
    const result = await runTimed(process.execPath, depcruiseArgs(root, outFile, preCompilation), root);
    if (result.error) return { error: failure(result) };
    walls.push(result.seconds);
  }
  return { seconds: median(walls), runs: walls };
}

/** depcruise JSON → file → file edges (both ends under src/, resolved), with their dependency facts. */
function readDepcruiseEdges(outFile) {
  const json = JSON.parse(fs.readFileSync(outFile, "utf8"));
  const inSource = (p) => p.startsWith(`${SOURCE_DIR}/`);
  const files = new Set(json.modules.map((m) => m.source).filter(inSource));
  const edges = new Map();
  for (const module of json.modules) {
    if (!inSource(module.source)) continue;
    for (const dep of module.dependencies) {
      if (dep.couldNotResolve || dep.coreModule || !files.has(dep.resolved)) continue;
      const key = `${module.source}\u0000${dep.resolved}`;
      const seen = edges.get(key) ?? { source: module.source, target: dep.resolved, deps: [] };
      seen.deps.push({ specifier: dep.module, types: dep.dependencyTypes, dynamic: dep.dynamic });
      edges.set(key, seen);
    }
  }
  return { files, edges };
}

// ---------------------------------------------------------------- comparison

function edgeKey(source, target) {
  return `${source}\u0000${target}`;
}

/**
 * Why we have an edge depcruise lacks: from our import facts for it and, when
 * the like-for-like depcruise run has the edge, the dependency types it gave.
 */
function classifyOursOnly(facts, likeForLike) {
  if (facts.length === 0) return "barrel-derived (ours links through a barrel to the defining file)";
  const theirTypes = new Set(likeForLike?.deps.flatMap((d) => d.types) ?? []);
  if (theirTypes.has("type-only")) return "type-only import (`import type`, dropped by depcruise's default mode)";
  if (theirTypes.has("triple-slash-directive")) return "triple-slash reference (ignored by depcruise's default mode)";
  if (likeForLike && (theirTypes.has("pre-compilation-only") || facts.every((f) => f.kind === "static" || f.kind === "reexport"))) {
    return "import whose bindings are used only as types (elided by tsc, so dropped by depcruise's default mode)";
  }
  if (likeForLike) return `only in depcruise's --ts-pre-compilation-deps run [${[...theirTypes].join(",")}]`;
  const kinds = new Set(facts.map((f) => f.kind));
  if (kinds.size === 1 && kinds.has("reference")) return "triple-slash reference";
  if (facts.every((f) => f.typeOnly)) return "type-only import";
  if (kinds.size === 1 && kinds.has("dynamic")) return "dynamic import()";
  if (kinds.size === 1 && kinds.has("require")) return "require()";
  return "static import depcruise resolves elsewhere or not at all";
}

/** Why depcruise has an edge we lack. */
function classifyTheirsOnly(edge, ourFactsFrom, graphHas) {
  const types = new Set(edge.deps.flatMap((d) => d.types));
  const specifiers = edge.deps.map((d) => d.specifier);
  const ourFacts = ourFactsFrom.filter((f) => specifiers.includes(f.specifier));
  if (ourFacts.length === 0) {
    if (types.has("triple-slash-directive")) return "triple-slash directive we do not parse";
    if (types.has("dynamic-import") || edge.deps.some((d) => d.dynamic)) return "dynamic import() we do not parse";
    if (types.has("require")) return "require() we do not parse";
    return "specifier missing from our parse";
  }
  const targets = [...new Set(ourFacts.map((f) => f.target ?? "unresolved"))];
  if (targets.every((t) => t === "unresolved")) return "unresolved by us";
  if (targets.every((t) => t.startsWith("pkg:"))) return "resolved by us to an external package";
  return graphHas ? "resolved by us to another file (edge exists only as barrel-derived)" : "resolved by us to another file";
}

/** Agreement of our direct edges with one depcruise run; `likeForLike` (the pre-compilation run) explains our extra edges. */
function compareEdges(ours, theirs, likeForLike) {
  const factsByEdge = new Map();
  const factsByFile = new Map();
  for (const fact of ours.facts ?? []) {
    const list = factsByFile.get(fact.file) ?? [];
    list.push(fact);
    factsByFile.set(fact.file, list);
    if (!fact.target || fact.target.startsWith("pkg:")) continue;
    const key = edgeKey(fact.file, fact.target);
    factsByEdge.set(key, [...(factsByEdge.get(key) ?? []), fact]);
  }
  const graphKeys = new Set(ours.graphEdges.map((e) => edgeKey(e.source, e.target)));
  const direct = ours.facts
    ? new Set(factsByEdge.keys())
    : new Set(ours.graphEdges.filter((e) => e.via.length === 0).map((e) => edgeKey(e.source, e.target)));
  const theirKeys = new Set(theirs.edges.keys());
  const both = [...direct].filter((k) => theirKeys.has(k));
  const oursOnly = [...direct].filter((k) => !theirKeys.has(k)).sort();
  const theirsOnly = [...theirKeys].filter((k) => !direct.has(k)).sort();
  const group = (keys, classify) => {
    const groups = new Map();
    for (const key of keys) {
      const kind = classify(key);
      const list = groups.get(kind) ?? [];
      list.push(key);
      groups.set(kind, list);
    }
    return [...groups].sort((a, b) => b[1].length - a[1].length);
  };
  const describeOurs = (key) => {
    const [source, target] = key.split("\u0000");
    const facts = factsByEdge.get(key) ?? [];
    const how = facts.map((f) => `${f.kind}${f.typeOnly ? " type" : ""} "${f.specifier}" line ${f.line}`).join("; ");
    return { source, target, how };
  };
  const describeTheirs = (key) => {
    const edge = theirs.edges.get(key);
    const ourFacts = (factsByFile.get(edge.source) ?? []).filter((f) => edge.deps.some((d) => d.specifier === f.specifier));
    const ourTargets = ourFacts.length ? ` (ours: ${[...new Set(ourFacts.map((f) => f.target ?? "unresolved"))].join(", ")})` : " (ours: no import fact)";
    const how = edge.deps.map((d) => `[${d.types.join(",")}] "${d.specifier}"`).join("; ") + ourTargets;
    return { source: edge.source, target: edge.target, how };
  };
  const oursGroups = group(oursOnly, (key) => classifyOursOnly(factsByEdge.get(key) ?? [], likeForLike?.edges.get(key)));
  const theirsGroups = group(theirsOnly, (key) => classifyTheirsOnly(theirs.edges.get(key), factsByFile.get(theirs.edges.get(key).source) ?? [], graphKeys.has(key)));
  const ourFiles = new Set(ours.files);
  return {
    files: { ours: ourFiles.size, theirs: theirs.files.size, onlyOurs: [...ourFiles].filter((f) => !theirs.files.has(f)).sort(), onlyTheirs: [...theirs.files].filter((f) => !ourFiles.has(f)).sort() },
    edges: {
      oursDirect: direct.size,
      oursGraph: graphKeys.size,
      barrelDerived: [...graphKeys].filter((k) => !direct.has(k)).length,
      theirs: theirKeys.size,
      both: both.length,
      overTheirs: theirKeys.size ? both.length / theirKeys.size : null,
      overOurs: direct.size ? both.length / direct.size : null,
      graphCoversTheirs: theirKeys.size ? [...theirKeys].filter((k) => graphKeys.has(k)).length / theirKeys.size : null,
    },
    directNote: ours.factsNote,
    oursOnly: oursGroups.map(([kind, keys]) => ({ kind, count: keys.length, examples: keys.slice(0, EXAMPLES_PER_KIND).map(describeOurs) })),
    theirsOnly: theirsGroups.map(([kind, keys]) => ({ kind, count: keys.length, examples: keys.slice(0, EXAMPLES_PER_KIND).map(describeTheirs) })),
  };
}

// ---------------------------------------------------------------- printing

function printRows(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  for (const row of rows) say(row.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join("  "));
}

const seconds = (v) => (v == null ? "-" : v.toFixed(2));
const ratio = (a, b) => (a == null || b == null || b === 0 ? "-" : (a / b).toFixed(2) + "x");
const share = (v) => (v == null ? "-" : v.toFixed(3));

function printSummary(results) {
  say("");
  say("times: median wall seconds of fresh processes (ours in-process: buildGraph alone); ratio = depcruise / ours");
  const timeRows = [["package", "files", "ours s", "ours in-proc s", "dc s", "dc default s", "dc/ours", "dc default/ours"]];
  for (const r of results) {
    timeRows.push([r.spec, r.ours?.stats?.files ?? "-", seconds(r.ours?.seconds), seconds(r.ours?.inProcessSeconds), seconds(r.depcruise?.seconds), seconds(r.depcruiseDefault?.seconds), ratio(r.depcruise?.seconds, r.ours?.seconds), ratio(r.depcruiseDefault?.seconds, r.ours?.seconds)]);
  }
  printRows(timeRows);
  say("");
  say("edges: file → file. ours = direct import/reexport edges (+barrel: extra edges through barrels, left out); dc = depcruise --ts-pre-compilation-deps, dc default = without");
  const edgeRows = [["package", "against", "ours", "+barrel", "theirs", "both", "both/theirs", "both/ours"]];
  for (const r of results) {
    for (const [label, a] of [["dc", r.agreement], ["dc default", r.agreementDefault]]) {
      const e = a?.edges;
      edgeRows.push([r.spec, label, e?.oursDirect ?? "-", e?.barrelDerived ?? "-", e?.theirs ?? "-", e?.both ?? "-", share(e?.overTheirs), share(e?.overOurs)]);
    }
  }
  printRows(edgeRows);
  for (const r of results) {
    if (!r.agreement) continue;
    const files = r.agreement.files;
    say("");
    say(`${r.spec}: files ours ${files.ours}, depcruise ${files.theirs}${files.onlyOurs.length ? `; only ours: ${files.onlyOurs.slice(0, 5).join(" ")}` : ""}${files.onlyTheirs.length ? `; only depcruise: ${files.onlyTheirs.slice(0, 5).join(" ")}` : ""}`);
    if (r.agreement.directNote) say(`  note: ${r.agreement.directNote}`);
    for (const [label, a] of [["dc", r.agreement], ["dc default", r.agreementDefault]]) {
      if (!a) continue;
      if (!a.oursOnly.length && !a.theirsOnly.length) say(`  vs ${label}: the same edges`);
      for (const [side, groups] of [["only ours", a.oursOnly], ["only depcruise", a.theirsOnly]]) {
        for (const g of groups) {
          say(`  vs ${label} · ${side} · ${g.kind}: ${g.count}`);
          for (const ex of g.examples) say(`      ${ex.source} → ${ex.target}   ${ex.how}`);
        }
      }
    }
    const stats = r.ours?.stats;
    if (stats?.parseErrors) say(`  ours: ${stats.parseErrors} of ${stats.files} files had tree-sitter syntax errors (facts completed with the TypeScript parser); parse ${stats.millis.parse} ms of ${stats.millis.total} ms`);
    if (stats?.unresolvedSpecifiers) say(`  ours: ${stats.unresolvedSpecifiers} unresolved specifier(s)`);
  }
}

// ---------------------------------------------------------------- main

function parseArgs(argv) {
  const options = { runs: DEFAULT_RUNS, packages: PACKAGES.map((p) => p.name) };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--runs") options.runs = Math.max(1, Number.parseInt(argv[++i], 10) || DEFAULT_RUNS);
    else if (arg === "--package") options.packages = String(argv[++i]).split(",").filter(Boolean);
    else if (arg === "-h" || arg === "--help") {
      say("usage: node scripts/bench-graph.mjs [--runs N] [--package rxjs,effect]");
      process.exit(0);
    } else {
      process.stderr.write(`bench-graph: unknown argument ${arg} (see --help)\n`);
      process.exit(2);
    }
  }
  return options;
}

function depcruiseVersion() {
  try {
    return JSON.parse(fs.readFileSync(path.join(path.dirname(DEPCRUISE_BIN), "..", "package.json"), "utf8")).version;
  } catch {
    return null;
  }
}

function ensureBuilt() {
  if (fs.existsSync(DIST_INDEX)) return;
  say("dist/ missing: running npm run build");
  const build = spawnSync("npm", ["run", "build"], { cwd: PROJECT_ROOT, stdio: "inherit" });
  if (build.status !== 0 || !fs.existsSync(DIST_INDEX)) {
    process.stderr.write("bench-graph: npm run build failed (fix the build, then rerun)\n");
    process.exit(1);
  }
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === "--child") return runChild(argv[1], argv[2], argv[3]);
  const options = parseArgs(argv);
  ensureBuilt();
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  let build;
  try {
    build = await snapshotBuild(PROJECT_ROOT, BUILD_COPY);
  } catch (error) {
    process.stderr.write(`bench-graph: ${error.message}\n`);
    process.exit(1);
  }
  const tree = describeTree(PROJECT_ROOT);
  say(`build: dist/ of ${tree}, copied to ${path.relative(PROJECT_ROOT, BUILD_COPY)}`);
  const results = [];
  for (const pkg of PACKAGES.filter((p) => options.packages.includes(p.name))) {
    const result = { name: pkg.name, spec: pkg.spec };
    results.push(result);
    let root;
    try {
      root = fetchPackage(pkg);
    } catch (error) {
      say(`${pkg.spec}: fetch failed: ${error.message}`);
      result.error = error.message;
      continue;
    }
    result.tsconfig = fs.existsSync(path.join(root, "tsconfig.json")) ? "tsconfig.json" : null;
    say(`${pkg.spec}: timing (${options.runs} runs each) in ${path.relative(PROJECT_ROOT, root)}${result.tsconfig ? " (tsconfig.json)" : " (no tsconfig)"}`);
    const preFile = path.join(CACHE_DIR, `${pkg.name}.depcruise.json`);
    const defaultFile = path.join(CACHE_DIR, `${pkg.name}.depcruise-default.json`);
    result.ours = await timeOurs(root, options.runs, build);
    if (result.ours.error) say(`${pkg.spec}: ours failed: ${result.ours.error}`);
    result.depcruise = await timeDepcruise(root, options.runs, true, preFile);
    if (result.depcruise.error) say(`${pkg.spec}: depcruise failed: ${result.depcruise.error}`);
    result.depcruiseDefault = await timeDepcruise(root, options.runs, false, defaultFile);
    if (result.depcruiseDefault.error) say(`${pkg.spec}: depcruise (default mode) failed: ${result.depcruiseDefault.error}`);
    if (result.ours.error || result.depcruise.error) continue;
    try {
      const edgesRun = await runTimed(process.execPath, [fileURLToPath(import.meta.url), "--child", "edges", root, build], root);
      if (edgesRun.error) throw new Error(failure(edgesRun));
      const ours = JSON.parse(lastLine(edgesRun.stdout));
      const theirs = readDepcruiseEdges(preFile);
      result.agreement = compareEdges(ours, theirs, theirs);
      if (!result.depcruiseDefault.error) result.agreementDefault = compareEdges(ours, readDepcruiseEdges(defaultFile), theirs);
    } catch (error) {
      say(`${pkg.spec}: edge comparison failed: ${error.message}`);
    }
  }
  printSummary(results);
  const meta = { tree, date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? null, runs: options.runs, depcruise: depcruiseVersion() };
  fs.writeFileSync(RESULTS_FILE, JSON.stringify({ meta, results }, null, 2) + "\n");
  say("");
  say(`results: ${path.relative(PROJECT_ROOT, RESULTS_FILE)}`);
}

main().catch((error) => {
  process.stderr.write(`bench-graph: ${error.stack ?? error.message}\n`);
  process.exit(1);
});

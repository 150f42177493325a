#!/usr/bin/env node
// Speed benchmark: the persistent index against the parser's own speed and dependency-cruiser.
//
//   npm run bench:speed [-- --runs 10] [--cold-runs 3] [--edit-runs 3] [--package rxjs,effect,monaco,date-fns,rollup-repo,babel-repo,monorepo-50k] [--no-depcruise] [--synthetic-copies 2] [--repo-mirrors DIR]
//
// Packages come from `npm pack` into .bench-cache/speed/<name> (pinned specs below); rollup-repo, babel-repo
// and monorepo-50k (repositories side by side, 50k+ files) are git checkouts from $GR_BENCH_MIRRORS. For
// each, measured in this run, every figure from a fresh child process of a frozen copy of dist/ (see
// snapshot-build.mjs):
// - raw: tree-sitter parse + our grammar query (captures iterated) of the same files the scan keeps, one
//   thread, no facts, no resolve: the parser's own speed;
// - cold: `graph-retrieve index` with an empty --cache-dir (whole process; in-process ms too; peak RSS);
//   raw and cold are run --cold-runs times, interleaved, and the median run of each is shown;
// - warm query: `graph-retrieve "<task>" --format json` over the built index, whole process, p50 of --runs;
// - edit: append a function to one file of a copy of the package, then `graph-retrieve index` again;
//   --edit-runs times, the median run shown (monorepo-50k: in place, the file put back after);
// - daemon: the warm query, and the edit again (--edit-runs times, each in a daemon started just before),
//   answered by `graph-retrieve daemon start` (the index in memory; the client process still timed from
//   start to exit);
// - dependency-cruiser 17.4.3 on the same folder (like scripts/bench-graph.mjs: --no-config,
//   --ts-pre-compilation-deps, --ts-config when present), and its edge agreement with ours;
// - 20k files: a synthetic tree of copies of the largest package's files under renamed folders, cold
//   index measured on it and extrapolated linearly to 20,000 files.
// - history (issue 19), on a git repository of 10,000+ commits (--history-mirror DIR, a git directory;
//   default: webpack's from $GR_BENCH_MIRRORS at the training set's pinned commit, checked out into
//   .bench-cache/speed/history-tree): cold index with --no-history against cold index reading the last
//   10,000 commits (the difference is the history's cost), the store's size with and without
//   history.json and history-evidence.json (after the warm queries: the first writes the latter), peak
//   RSS of both, and a warm query with and without history.
// Results: a table on stdout and .bench-cache/speed/results.json. `--child raw ROOT BUILD INCLUDE` and
// `--child edges ROOT BUILD INCLUDE CACHE` are this file's own child modes.

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describeTree, snapshotBuild } from "./snapshot-build.mjs";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CACHE_DIR = path.join(PROJECT_ROOT, ".bench-cache", "speed");
const BUILD_COPY = path.join(CACHE_DIR, "build");
const WORK = path.join(CACHE_DIR, "work");
const DEPCRUISE_BIN = path.join(PROJECT_ROOT, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
const TIME_BIN = "/usr/bin/time";
const CHILD_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * Pinned: effect 4.1.0, the release issue 22's targets are set on (572 files of src/; bench-graph keeps 3.22.4
 * for its edge comparison). The ≥ 2k-file package is date-fns 4.1.0:
 * its ESM .js and .d.ts files (2,5xx; the .cjs / .d.cts twins and the minified CDN bundles left out);
 * monaco-editor's esm/ tree gives only 1,501 files after the scan.
 */
const PACKAGES = [
  { name: "rxjs", spec: "rxjs@7.8.1", dir: "src", task: "retry an observable with a delay after an error" },
  { name: "effect", spec: "effect@4.1.0", dir: "src", task: "add a timeout to a stream of effects" },
  { name: "monaco", spec: "monaco-editor@0.57.0", dir: "esm", task: "fold code regions in the editor" },
  {
    name: "date-fns",
    spec: "date-fns@4.1.0",
    dir: ".",
    exclude: ["**/*.cjs", "**/*.d.cts", "**/*.min.js"],
    depcruiseExclude: "[.](cjs|d[.]cts)$|[.]min[.]js$",
    task: "add business days to a date skipping weekends",
  },
  /**
   * A real repository of 10,000+ code files (issue 22): rollup, the training set's largest (12,7xx files
   * after the scan, most of them test fixtures), checked out from its mirror under $GR_BENCH_MIRRORS
   * (or --repo-mirrors DIR) at the parent of its newest training task, history included. Without a
   * mirror its row says so. dependency-cruiser is not run on it (minutes, and the edges are compared
   * on the packages above).
   */
  {
    name: "rollup-repo",
    repo: "rollup/rollup",
    ref: "4b6bc39ea71c5f7ce346da8151657d7fcaae926e",
    spec: "rollup/rollup@4b6bc39e (git)",
    dir: ".",
    depcruise: false,
    task: "fix tree shaking of unused class fields",
  },
  /**
   * The folder-heavy large repository of issue 46: babel, 17.6k code files after the scan in 12.9k folders
   * (rollup's 12.7k are in 4.6k), so that the scan's cost per folder (the walk, the folder snapshot) shows.
   * Checked out like rollup-repo, from its mirror at the mirror's HEAD on the day it was pinned, history
   * included.
   */
  {
    name: "babel-repo",
    repo: "babel/babel",
    ref: "1da3cfa1a25503c7ecba7304f8738933e6d16dca",
    spec: "babel/babel@1da3cfa1 (git)",
    dir: ".",
    depcruise: false,
    task: "fix scope tracking of class private methods",
  },
  /**
   * A large Python repository (issue 47): saleor, 4,337 Python files (849k lines) after the scan, checked out
   * from its mirror at the train-python split's pinned commit, history included. Its one-file edit appends a
   * Python function to its largest Python file.
   */
  {
    name: "saleor-repo",
    repo: "saleor/saleor",
    ref: "723cd4eba87dfc72822ade45dc08a3caa548428d",
    spec: "saleor/saleor@723cd4eb (git, Python)",
    dir: ".",
    depcruise: false,
    language: "python",
    task: "fix checkout completion when the payment is declined",
  },
  /**
   * A tree of 50,000+ scanned files (issue 46): no one repository of the mirrors is that large (their
   * snapshots stop at 500 MB), so several sit side by side, each checked out at a pinned commit (its
   * mirror's HEAD on the day it was pinned) into its own folder <tree>/<owner>-<name>/: 54,782 files after
   * the scan (babel 17.6k, webpack 12.9k, rollup 12.7k, medusa 7.4k, prisma 4.2k). The tree itself
   * is not a git repository: no history is read, and the row says so. Its one-file edit is made in
   * place (see measurePackage).
   */
  {
    name: "monorepo-50k",
    repos: [
      { repo: "babel/babel", ref: "1da3cfa1a25503c7ecba7304f8738933e6d16dca" },
      { repo: "webpack/webpack", ref: "bc3e930f75e3f6ecbdf193a0dedf6067ea3a286b" },
      { repo: "rollup/rollup", ref: "89bda2cd8e9def2ea037e7dbffaf392ce9f1ddcb" },
      { repo: "medusajs/medusa", ref: "59e6747800133e091d20c2c167f600981abc5c0d" },
      { repo: "prisma/prisma", ref: "9b75b95503c2f8fdfc75319e5b158912e11aae81" },
    ],
    spec: "monorepo-50k (5 repositories, no git)",
    dir: ".",
    depcruise: false,
    editInPlace: true,
    task: "fix source maps of modules re-exported through a barrel file",
  },
];

/** The scan options of a package: its folder, less its excluded globs. */
const scanOptionsOf = (pkg) => ({ include: [pkg.dir === "." ? "**" : `${pkg.dir}/**`], exclude: pkg.exclude ?? [] });
const scanArgs = (scan) => [...scan.include.flatMap((g) => ["--include", g]), ...scan.exclude.flatMap((g) => ["--exclude", g])];

// ---------------------------------------------------------------- child modes

async function rawChild(root, build, scanJson) {
  const dist = path.join(build, "dist");
  const { scanFiles } = await import(pathToFileURL(path.join(dist, "scan", "index.js")).href);
  const { loadLanguage } = await import(pathToFileURL(path.join(dist, "parse", "load-language.js")).href);
  const { parseText } = await import(pathToFileURL(path.join(dist, "parse", "parse-tree.js")).href);
  const scan = await scanFiles(root, JSON.parse(scanJson));
  const started = performance.now();
  let captures = 0;
  let bytes = 0;
  for (const file of scan.files) {
    const text = fs.readFileSync(file.absPath, "utf8");
    bytes += text.length;
    const loaded = loadLanguage(file.language);
    const tree = parseText(loaded.parser, text);
    captures += loaded.query.captures(tree.rootNode).length;
  }
  const millis = performance.now() - started;
  process.stdout.write(JSON.stringify({ millis, files: scan.files.length, bytes, captures, maxRssMb: process.resourceUsage().maxRSS / 1024 }) + "\n");
}

/** Our direct file → file import edges (facts resolved to a scanned file), from the built index. */
async function edgesChild(root, build, scanJson, cacheDir) {
  const { buildGraph } = await import(pathToFileURL(path.join(build, "dist", "index.js")).href);
  const codeGraph = await buildGraph(root, { ...JSON.parse(scanJson), cacheDir });
  const edges = new Set();
  codeGraph.graph.forEachEdge((_key, attributes, source, target) => {
    if ((attributes.kind === "import" || attributes.kind === "reexport") && !attributes.via && codeGraph.files.has(target)) edges.add(`${source}\u0000${target}`);
  });
  process.stdout.write(JSON.stringify({ edges: [...edges] }) + "\n");
}

// ---------------------------------------------------------------- helpers

const say = (line = "") => process.stdout.write(line + "\n");
const lastLine = (text) => String(text).trim().split("\n").at(-1) ?? "";

/** The run of median wall time (the lower middle one of an even number). */
function medianRun(runs) {
  return [...runs].sort((a, b) => a.wallSeconds - b.wallSeconds)[Math.floor((runs.length - 1) / 2)];
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/** Run a command under /usr/bin/time -f %M when present; resolves with wall seconds, stdout, stderr, peak RSS MB. */
function runTimed(command, args, { cwd = PROJECT_ROOT, env = process.env } = {}) {
  const timed = fs.existsSync(TIME_BIN);
  const marker = "__maxrss_kb=";
  const [cmd, argv] = timed ? [TIME_BIN, ["-f", `${marker}%M`, command, ...args]] : [command, args];
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(cmd, argv, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const out = [];
    const err = [];
    child.stdout.on("data", (c) => out.push(c));
    child.stderr.on("data", (c) => err.push(c));
    const timer = setTimeout(() => child.kill("SIGKILL"), CHILD_TIMEOUT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      let stderr = Buffer.concat(err).toString("utf8");
      let rssMb = null;
      const at = stderr.lastIndexOf(marker);
      if (at >= 0) {
        rssMb = Number(stderr.slice(at + marker.length).trim()) / 1024;
        stderr = stderr.slice(0, at);
      }
      resolve({ code, seconds, stdout: Buffer.concat(out).toString("utf8"), stderr, rssMb });
    });
  });
}

function check(result, what) {
  if (result.code !== 0) throw new Error(`${what} failed (exit ${result.code}): ${lastLine(result.stderr).slice(0, 300)}`);
  return result;
}

/**
 * A repository's tree at its pinned commit, over its mirror's objects (scripts/learn/git-tree.mjs), reused while
 * it is there; or, for an entry of `repos`, each of them so at <tree>/<owner>-<name>/ (the tree's other entries removed).
 */
async function repositoryTree(pkg, mirrors) {
  const repos = pkg.repos ?? [{ repo: pkg.repo, ref: pkg.ref }];
  if (!mirrors) throw new Error(`skipped: no mirror of ${repos.map((r) => r.repo).join(", ")} (set GR_BENCH_MIRRORS or --repo-mirrors DIR to a folder of owner+name/repo mirrors)`);
  const { mirrorGitDir, openTree } = await import("./learn/git-tree.mjs");
  const dir = path.join(CACHE_DIR, pkg.name);
  if (!pkg.repos) {
    openTree(dir, mirrorGitDir(mirrors, pkg.repo)).moveTo(pkg.ref);
    return dir;
  }
  const folders = repos.map((r) => r.repo.replace("/", "-"));
  fs.mkdirSync(dir, { recursive: true });
  for (const entry of fs.readdirSync(dir)) if (!folders.includes(entry)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  repos.forEach((r, i) => openTree(path.join(dir, folders[i]), mirrorGitDir(mirrors, r.repo)).moveTo(r.ref));
  return dir;
}

function fetchPackage(pkg) {
  const dir = path.join(CACHE_DIR, pkg.name);
  const marker = path.join(dir, ".bench-spec");
  if (fs.existsSync(marker) && fs.readFileSync(marker, "utf8").trim() === pkg.spec) return dir;
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const work = fs.mkdtempSync(path.join(CACHE_DIR, ".pack-"));
  try {
    const pack = spawnSync("npm", ["pack", pkg.spec, "--ignore-scripts", "--pack-destination", work], { encoding: "utf8" });
    if (pack.status !== 0) throw new Error(`npm pack ${pkg.spec} failed: ${lastLine(pack.stderr)}`);
    const tarball = fs.readdirSync(work).find((f) => f.endsWith(".tgz"));
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const untar = spawnSync("tar", ["xzf", path.join(work, tarball), "-C", dir, "--strip-components=1"], { encoding: "utf8" });
    if (untar.status !== 0) throw new Error(`tar failed: ${lastLine(untar.stderr)}`);
    fs.writeFileSync(marker, pkg.spec + "\n");
    return dir;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Every file's mtime an hour back: a warm run may then trust the stats (fresh files are re-hashed once). */
function ageTree(dir) {
  const past = Date.now() / 1000 - 3600;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) fs.utimesSync(path.join(entry.parentPath, entry.name), past, past);
  }
}

const cliPath = () => path.join(BUILD_COPY, "dist", "cli", "main.js");

function indexArgs(root, scan, cacheDir) {
  return [cliPath(), "index", "--root", root, ...scanArgs(scan), "--cache-dir", cacheDir, "--format", "json", "-q"];
}

// ---------------------------------------------------------------- measurements

async function measurePackage(pkg, options) {
  const root = pkg.repo || pkg.repos ? await repositoryTree(pkg, options.repoMirrors) : fetchPackage(pkg);
  const include = scanOptionsOf(pkg);
  const result = { name: pkg.name, spec: pkg.spec, include, ...(pkg.repos ? { repos: pkg.repos } : {}) };
  const cacheDir = path.join(WORK, `${pkg.name}-index`);
  fs.rmSync(cacheDir, { recursive: true, force: true });

  // raw and cold, --cold-runs times each, interleaved (a busy spell of the machine hits both): the median run of each
  const raws = [];
  const colds = [];
  for (let i = 0; i < options.coldRuns; i++) {
    const raw = check(await runTimed(process.execPath, [fileURLToPath(import.meta.url), "--child", "raw", root, BUILD_COPY, JSON.stringify(include)]), "raw parse");
    raws.push({ ...JSON.parse(lastLine(raw.stdout)), wallSeconds: raw.seconds });
    fs.rmSync(cacheDir, { recursive: true, force: true });
    const cold = check(await runTimed(process.execPath, indexArgs(root, include, cacheDir)), "cold index");
    const summary = JSON.parse(lastLine(cold.stdout));
    colds.push({ wallSeconds: cold.seconds, millis: summary.ms, files: summary.files, rssMb: cold.rssMb, ...(summary.history ? { history: summary.history } : {}) });
  }
  const medianBy = (runs, key) => [...runs].sort((a, b) => a[key] - b[key])[Math.floor((runs.length - 1) / 2)];
  result.raw = { ...medianBy(raws, "millis"), runs: raws.map((r) => r.millis) };
  result.cold = { ...medianBy(colds, "wallSeconds"), runs: colds.map((r) => r.wallSeconds), rssMb: Math.max(...colds.map((r) => r.rssMb)) };

  const warmIndex = check(await runTimed(process.execPath, indexArgs(root, include, cacheDir)), "warm index");
  result.warmIndex = { wallSeconds: warmIndex.seconds, ...JSON.parse(lastLine(warmIndex.stdout)) };

  // the task, --runs times, whole process each: p50 and every run
  const timeQueries = async (what) => {
    const walls = [];
    for (let i = 0; i < options.runs; i++) {
      const query = check(await runTimed(process.execPath, [cliPath(), pkg.task, "--root", root, ...scanArgs(include), "--cache-dir", cacheDir, "--format", "json", "-q"]), what);
      walls.push(query.seconds);
    }
    return { p50Seconds: percentile(walls, 0.5), runs: walls };
  };
  result.warmQuery = await timeQueries("warm query");
  // the same query, answered by a daemon holding the index in memory
  await withDaemon(root, include, cacheDir, async () => {
    result.daemonQuery = await timeQueries("daemon query");
  });

  // one-file edit: on a copy of the package, indexed afresh; or, with pkg.editInPlace (monorepo-50k: a copy
  // would be 81k files and 680 MB, then a second cold index of 54k files, for one edited file), on the tree
  // itself, refreshing the index the warm queries used, the file put back after (its bytes and its times) in
  // a finally; a run killed in between leaves it edited, and the next run's `checkout -f` puts it back
  // (repositoryTree)
  let editRoot = root;
  let editIndex = cacheDir;
  if (!pkg.editInPlace) {
    editRoot = path.join(WORK, `${pkg.name}-copy`);
    editIndex = path.join(WORK, `${pkg.name}-copy-index`);
    fs.rmSync(editRoot, { recursive: true, force: true });
    fs.rmSync(editIndex, { recursive: true, force: true });
    fs.cpSync(path.join(root, pkg.dir), path.join(editRoot, pkg.dir), { recursive: true });
    for (const name of ["package.json", "tsconfig.json"]) if (fs.existsSync(path.join(root, name))) fs.copyFileSync(path.join(root, name), path.join(editRoot, name));
    ageTree(editRoot);
    check(await runTimed(process.execPath, indexArgs(editRoot, include, editIndex)), "index of the copy");
  }
  const victim = await findLargestScanned(editRoot, include, pkg.language);
  if (!victim) throw new Error(`no ${pkg.language === "python" ? ".py" : ".ts or .js"} file under 200 KB to edit`);
  const before = pkg.editInPlace ? { bytes: fs.readFileSync(victim), stat: fs.statSync(victim) } : null;
  try {
    // --edit-runs edits, each a new function appended (see appendedFunction), then `index`; the median run is shown
    const edits = [];
    for (let i = 0; i < options.editRuns; i++) {
      fs.appendFileSync(victim, appendedFunction(pkg.language, `benchEditedLater${i}`, i));
      const edit = check(await runTimed(process.execPath, indexArgs(editRoot, include, editIndex)), "edit refresh");
      edits.push({ wallSeconds: edit.seconds, ...JSON.parse(lastLine(edit.stdout)) });
    }
    result.edit = { file: path.relative(editRoot, victim), inPlace: Boolean(pkg.editInPlace), ...medianRun(edits), runs: edits.map((e) => e.wallSeconds) };
    // the same edits refreshed by a daemon that holds the index in memory: each in a daemon started just
    // before (its first edit, the slowest: nothing of the edit's own path has run in it yet)
    const daemonEdits = [];
    for (let i = 0; i < options.editRuns; i++) {
      await withDaemon(editRoot, include, editIndex, async () => {
        fs.appendFileSync(victim, appendedFunction(pkg.language, `benchEditedAgain${i}`, i));
        const again = check(await runTimed(process.execPath, indexArgs(editRoot, include, editIndex)), "daemon edit refresh");
        daemonEdits.push({ wallSeconds: again.seconds, ...JSON.parse(lastLine(again.stdout)) });
      });
    }
    result.daemonEdit = { ...medianRun(daemonEdits), runs: daemonEdits.map((e) => e.wallSeconds) };
  } finally {
    if (before) {
      fs.writeFileSync(victim, before.bytes);
      fs.utimesSync(victim, before.stat.atimeMs / 1000, before.stat.mtimeMs / 1000);
    }
  }

  if (options.depcruise && pkg.depcruise !== false && fs.existsSync(DEPCRUISE_BIN)) {
    const out = path.join(WORK, `${pkg.name}.depcruise.json`);
    const args = [DEPCRUISE_BIN, pkg.dir, "--no-config", "--output-type", "json", "--output-to", out, "--do-not-follow", "node_modules", "--progress", "none", "--ts-pre-compilation-deps"];
    if (fs.existsSync(path.join(root, "tsconfig.json"))) args.push("--ts-config", "tsconfig.json");
    if (pkg.depcruiseExclude) args.push("--exclude", pkg.depcruiseExclude);
    const dc = await runTimed(process.execPath, args, { cwd: root });
    if (dc.code === 0) {
      result.depcruise = { wallSeconds: dc.seconds, rssMb: dc.rssMb, ...compareEdges(out, await ourEdges(root, include, cacheDir), pkg.dir) };
    } else result.depcruise = { error: lastLine(dc.stderr).slice(0, 200) };
  }
  return result;
}

/** Run `work` while a daemon serves `root` (started here, stopped after, even on failure). */
async function withDaemon(root, include, cacheDir, work) {
  const common = ["--root", root, "--cache-dir", cacheDir];
  check(await runTimed(process.execPath, [cliPath(), "daemon", "start", ...common, ...scanArgs(include)]), "daemon start");
  try {
    await work();
  } finally {
    await runTimed(process.execPath, [cliPath(), "daemon", "stop", ...common]);
  }
}

/**
 * The largest .ts / .js file (.py for a Python package) the scan keeps (no declaration, no minified file, under 200 KB), by the frozen
 * build's own scan: the edit is then of a file the index holds (the largest file on disk may be one it leaves
 * out, babel's generated validators: an edit of it refreshes nothing).
 */
async function findLargestScanned(root, include, language) {
  const { scanFiles } = await import(pathToFileURL(path.join(BUILD_COPY, "dist", "scan", "index.js")).href);
  const ending = language === "python" ? /\.py$/ : /\.(ts|js)$/;
  let best = null;
  for (const file of (await scanFiles(root, include)).files) {
    if (!ending.test(file.path) || file.isDeclaration || file.path.endsWith(".min.js") || file.size >= 200_000) continue;
    if (!best || file.size > best.size) best = file;
  }
  return best ? path.join(root, best.path) : null;
}

/** A function appended by an edit, valid in the file's language (a type annotation in a .js file would send it to the TypeScript fallback). */
function appendedFunction(language, name, i) {
  return language === "python" ? `\n\ndef ${name}():\n    return ${i}\n` : `\nexport function ${name}() { return ${i}; }\n`;
}

async function ourEdges(root, include, cacheDir) {
  const run = check(await runTimed(process.execPath, [fileURLToPath(import.meta.url), "--child", "edges", root, BUILD_COPY, JSON.stringify(include), cacheDir]), "edges");
  return new Set(JSON.parse(lastLine(run.stdout)).edges);
}

function compareEdges(depcruiseJson, ours, dir) {
  const json = JSON.parse(fs.readFileSync(depcruiseJson, "utf8"));
  const inDir = (p) => dir === "." || p.startsWith(`${dir}/`);
  const files = new Set(json.modules.map((m) => m.source).filter(inDir));
  const theirs = new Set();
  for (const module of json.modules) {
    if (!inDir(module.source)) continue;
    for (const dep of module.dependencies) if (!dep.couldNotResolve && !dep.coreModule && files.has(dep.resolved)) theirs.add(`${module.source}\u0000${dep.resolved}`);
  }
  // TypeScript's resolution takes a .js specifier to its .d.ts twin where dependency-cruiser takes the .js file
  // (date-fns ships both): compare with every .d.ts target named as its .js twin
  const twin = (key) => key.replace(/\.d\.ts$/, ".js");
  const oursByTwin = new Set([...ours].map(twin));
  const both = [...theirs].filter((k) => ours.has(k) || oursByTwin.has(twin(k))).length;
  return { edgesOurs: ours.size, edgesTheirs: theirs.size, edgesBoth: both, bothOverTheirs: theirs.size ? both / theirs.size : null };
}

/** A tree of `copies` copies of a package's folder under renamed folders; cold index timed on it, extrapolated to 20k files. */
async function measureSynthetic(pkg, copies) {
  const root = fetchPackage(pkg);
  const tree = path.join(WORK, "synthetic");
  const index = path.join(WORK, "synthetic-index");
  fs.rmSync(tree, { recursive: true, force: true });
  fs.rmSync(index, { recursive: true, force: true });
  for (let i = 0; i < copies; i++) fs.cpSync(path.join(root, pkg.dir), path.join(tree, `copy${i}`, pkg.dir), { recursive: true });
  ageTree(tree);
  const scan = { include: ["**"], exclude: pkg.exclude ?? [] };
  const cold = check(await runTimed(process.execPath, indexArgs(tree, scan, index)), "synthetic cold index");
  const summary = JSON.parse(lastLine(cold.stdout));
  const warm = check(await runTimed(process.execPath, indexArgs(tree, scan, index)), "synthetic warm index");
  const perFile = cold.seconds / summary.files;
  fs.rmSync(tree, { recursive: true, force: true });
  return { copies, files: summary.files, coldSeconds: cold.seconds, rssMb: cold.rssMb, warmSeconds: warm.seconds, extrapolated20kSeconds: perFile * 20_000 };
}

// ---------------------------------------------------------------- printing

function printRows(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  for (const row of rows) say(row.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join("  "));
}

const s2 = (v) => (v == null || !Number.isFinite(v) ? "-" : v.toFixed(2));
/** Seconds with the in-process ms in brackets; "-" for a row that has neither (a skipped one). */
const withMs = (seconds, ms) => (seconds == null ? "-" : `${s2(seconds)} [${ms}]`);
const ratio = (a, b) => (a == null || b == null || b === 0 ? "-" : (a / b).toFixed(2) + "x");

function printSummary(results, synthetic) {
  say();
  const coldRuns = results.find((r) => r.cold?.runs)?.cold.runs.length ?? 1;
  const editRuns = results.find((r) => r.edit?.runs)?.edit.runs.length ?? 1;
  say(`seconds; raw = tree-sitter parse+query, 1 thread, in-process; cold/edit/warm = whole CLI process (in-process ms in brackets); raw and cold: median of ${coldRuns} interleaved runs; edits: median of ${editRuns};`);
  say("daemon = the same command answered by `graph-retrieve daemon start` (index in memory), client process start to exit");
  const rows = [
    ["package", "files", "raw s", "cold s", "cold/raw", "cold RSS MB", "warm query p50 s", "daemon query p50 s", "warm index s", "edit s", "edit/cold", "daemon edit s", "daemon edit/cold", "dc s", "dc/cold", "edges both/dc", "history"],
  ];
  for (const r of results) {
    rows.push([
      r.spec,
      r.cold?.files ?? "-",
      s2(r.raw?.millis / 1000),
      withMs(r.cold?.wallSeconds, r.cold?.millis),
      ratio(r.cold?.wallSeconds, r.raw?.millis / 1000),
      r.cold?.rssMb != null ? Math.round(r.cold.rssMb) : "-",
      s2(r.warmQuery?.p50Seconds),
      s2(r.daemonQuery?.p50Seconds),
      withMs(r.warmIndex?.wallSeconds, r.warmIndex?.ms),
      withMs(r.edit?.wallSeconds, r.edit?.ms),
      ratio(r.edit?.wallSeconds, r.cold?.wallSeconds),
      withMs(r.daemonEdit?.wallSeconds, r.daemonEdit?.ms),
      ratio(r.daemonEdit?.wallSeconds, r.cold?.wallSeconds),
      s2(r.depcruise?.wallSeconds),
      ratio(r.depcruise?.wallSeconds, r.cold?.wallSeconds),
      r.depcruise?.bothOverTheirs != null ? `${r.depcruise.edgesBoth}/${r.depcruise.edgesTheirs} (${r.depcruise.bothOverTheirs.toFixed(3)})` : r.depcruise?.error ? "error" : "-",
      r.cold?.history ? `${r.cold.history.commits ?? "?"} commits [${r.cold.history.ms ?? "?"}]` : "-",
    ]);
  }
  printRows(rows);
  for (const r of results.filter((x) => x.cold?.history)) say(`${r.spec}: the cold index read ${r.cold.history.commits ?? "?"} commits of history in ${r.cold.history.ms ?? "?"} ms`);
  for (const r of results.filter((x) => x.repos && x.cold)) say(`${r.name}: ${r.cold.files} files from ${r.repos.length} repositories side by side (no history: not one repository)`);
  for (const r of results.filter((x) => x.error)) say(`${r.spec}: ${r.error}`);
  if (synthetic) {
    say();
    say(
      `synthetic: ${synthetic.copies} copies → ${synthetic.files} files: cold ${s2(synthetic.coldSeconds)} s, peak RSS ${Math.round(synthetic.rssMb ?? 0)} MB, warm index ${s2(synthetic.warmSeconds)} s; extrapolated to 20,000 files: ${s2(synthetic.extrapolated20kSeconds)} s`,
    );
  }
}

// ---------------------------------------------------------------- main

/** The history tree: a checkout of the mirror at the pinned commit (scripts/learn/git-tree.mjs), reused while it is there. */
async function historyTree(mirror, ref) {
  const { openTree } = await import("./learn/git-tree.mjs");
  const dir = path.join(CACHE_DIR, "history-tree");
  const tree = openTree(dir, mirror);
  tree.moveTo(ref);
  return dir;
}

/** The history's cost on a repository of 10,000+ commits: cold index without and with it, store size, RSS, warm query. */
async function measureHistory(options) {
  let mirror = options.historyMirror;
  let ref = options.historyRef;
  if (!mirror && process.env.GR_BENCH_MIRRORS) {
    const candidate = path.join(process.env.GR_BENCH_MIRRORS, "webpack+webpack", "repo");
    if (fs.existsSync(candidate)) {
      mirror = candidate;
      const corpora = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "..", "shared", "bench", "train", "corpora.json"), "utf8"));
      ref ??= corpora.find((c) => c.name === "webpack")?.git.ref;
    }
  }
  if (!mirror) return { skipped: "no --history-mirror DIR and no webpack mirror under $GR_BENCH_MIRRORS" };
  ref ??= spawnSync("git", ["--git-dir", mirror, "rev-parse", "HEAD"], { encoding: "utf8" }).stdout.trim();
  const root = await historyTree(mirror, ref);
  const commits = Number(spawnSync("git", ["-C", root, "rev-list", "--first-parent", "--count", "HEAD"], { encoding: "utf8" }).stdout.trim());
  const runs = { without: [], with: [] };
  for (let i = 0; i < options.coldRuns; i++) {
    for (const mode of ["without", "with"]) {
      const cacheDir = path.join(WORK, `history-${mode}`);
      fs.rmSync(cacheDir, { recursive: true, force: true });
      const args = [cliPath(), "index", "--root", root, "--cache-dir", cacheDir, "--format", "json", "-q", ...(mode === "without" ? ["--no-history"] : ["--history-commits", "10000"])];
      const run = check(await runTimed(process.execPath, args), `cold index ${mode} history`);
      const summary = JSON.parse(lastLine(run.stdout));
      runs[mode].push({ wallSeconds: run.seconds, rssMb: run.rssMb, history: summary.history });
    }
  }
  const warm = {};
  for (const mode of ["without", "with"]) {
    const cacheDir = path.join(WORK, `history-${mode}`);
    const times = [];
    for (let i = 0; i < options.runs; i++) {
      const run = check(await runTimed(process.execPath, [cliPath(), "fix the chunk graph when a module is concatenated", "--root", root, "--cache-dir", cacheDir, "--format", "json", "-q", ...(mode === "without" ? ["--no-history"] : ["--history-commits", "10000"])]), `warm query ${mode} history`);
      times.push(run.seconds);
    }
    warm[mode] = percentile(times, 0.5);
  }
  // the store is every file of the folder (index.json, facts.bin, graph.json…), once a query has run: the history's
  // share is its files' bytes (history.json, and history-evidence.json that the first query writes) against the rest
  const files = fs.readdirSync(path.join(WORK, "history-with")).map((name) => ({ name, size: fs.statSync(path.join(WORK, "history-with", name)).size }));
  const isHistory = (name) => name === "history.json" || name === "history-evidence.json";
  const sizes = { index: files.filter((f) => !isHistory(f.name)).reduce((sum, f) => sum + f.size, 0), history: files.filter((f) => isHistory(f.name)).reduce((sum, f) => sum + f.size, 0) };
  return { mirror, ref, commits, without: medianRun(runs.without), with: medianRun(runs.with), sizes, warm, rssMb: { without: Math.max(...runs.without.map((r) => r.rssMb ?? 0)), with: Math.max(...runs.with.map((r) => r.rssMb ?? 0)) } };
}

function printHistory(history) {
  say("");
  if (!history || history.skipped) return say(`history: skipped (${history?.skipped ?? "not asked"})`);
  const added = history.with.wallSeconds - history.without.wallSeconds;
  say(`history on ${history.mirror} at ${history.ref.slice(0, 12)} (${history.commits} first-parent commits):`);
  printRows([
    ["", "cold index s", "peak RSS MB", "store MB", "warm query s"],
    ["--no-history", history.without.wallSeconds.toFixed(2), history.rssMb.without.toFixed(0), (history.sizes.index / 1e6).toFixed(1), history.warm.without.toFixed(2)],
    ["10,000 commits", history.with.wallSeconds.toFixed(2), history.rssMb.with.toFixed(0), ((history.sizes.index + history.sizes.history) / 1e6).toFixed(1), history.warm.with.toFixed(2)],
  ]);
  say(`  the history adds ${added.toFixed(2)} s to a cold index (its read: ${history.with.history?.ms ?? "?"} ms, ${history.with.history?.commits ?? "?"} commits), ` +
    `${(100 * history.sizes.history / Math.max(1, history.sizes.index)).toFixed(1)} % to the store and ${(history.rssMb.with - history.rssMb.without).toFixed(0)} MB to peak RSS`);
}

function parseArgs(argv) {
  const options = { runs: 10, coldRuns: 3, editRuns: 3, packages: PACKAGES.map((p) => p.name), depcruise: true, syntheticCopies: 2, history: true, historyMirror: null, historyRef: null, repoMirrors: process.env.GR_BENCH_MIRRORS ?? null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--runs") options.runs = Math.max(1, Number.parseInt(argv[++i], 10) || 10);
    else if (arg === "--cold-runs") options.coldRuns = Math.max(1, Number.parseInt(argv[++i], 10) || 3);
    else if (arg === "--edit-runs") options.editRuns = Math.max(1, Number.parseInt(argv[++i], 10) || 3);
    else if (arg === "--package") options.packages = String(argv[++i]).split(",").filter(Boolean);
    else if (arg === "--no-depcruise") options.depcruise = false;
    else if (arg === "--synthetic-copies") options.syntheticCopies = Math.max(0, Number.parseInt(argv[++i], 10) || 0);
    else if (arg === "--history-mirror") options.historyMirror = argv[++i];
    else if (arg === "--history-ref") options.historyRef = argv[++i];
    else if (arg === "--no-history-bench") options.history = false;
    else if (arg === "--repo-mirrors") options.repoMirrors = argv[++i];
    else {
      process.stderr.write(`bench-speed: unknown argument ${arg} (usage: node scripts/bench-speed.mjs [--runs N] [--cold-runs N] [--package rxjs,effect,monaco,date-fns,rollup-repo,babel-repo,monorepo-50k] [--no-depcruise] [--synthetic-copies N] [--repo-mirrors DIR] [--history-mirror DIR] [--no-history-bench])\n`);
      process.exit(2);
    }
  }
  return options;
}

async function main() {
  if (process.argv[2] === "--child") {
    const [, , , mode, root, build, include, cacheDir] = process.argv;
    if (mode === "raw") return rawChild(root, build, include);
    if (mode === "edges") return edgesChild(root, build, include, cacheDir);
    throw new Error(`unknown child mode ${mode}`);
  }
  const options = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(PROJECT_ROOT, "dist", "index.js"))) spawnSync("npm", ["run", "build"], { cwd: PROJECT_ROOT, stdio: "inherit" });
  fs.mkdirSync(WORK, { recursive: true });
  await snapshotBuild(PROJECT_ROOT, BUILD_COPY);
  const tree = describeTree(PROJECT_ROOT);
  say(`build: dist/ of ${tree}, copied to ${path.relative(PROJECT_ROOT, BUILD_COPY)}`);
  const results = [];
  for (const pkg of PACKAGES.filter((p) => options.packages.includes(p.name))) {
    process.stderr.write(`bench-speed: ${pkg.spec}…\n`);
    try {
      results.push(await measurePackage(pkg, options));
    } catch (error) {
      results.push({ spec: pkg.spec, error: error.message });
    }
  }
  let synthetic = null;
  const largest = PACKAGES.find((p) => p.name === "monaco");
  if (options.syntheticCopies > 0 && options.packages.includes("monaco")) {
    process.stderr.write("bench-speed: synthetic tree…\n");
    synthetic = await measureSynthetic(largest, options.syntheticCopies);
  }
  printSummary(results, synthetic);
  let history = null;
  if (options.history) {
    process.stderr.write("bench-speed: history…\n");
    try {
      history = await measureHistory(options);
    } catch (error) {
      history = { skipped: error.message };
    }
    printHistory(history);
  }
  fs.writeFileSync(path.join(CACHE_DIR, "results.json"), JSON.stringify({ date: new Date().toISOString(), node: process.version, tree, results, synthetic, history }, null, 2) + "\n");
}

await main();

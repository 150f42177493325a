/**
 * A Retriever kept warm between MCP calls. Before each call it re-reads the
 * root's config and re-scans the root (paths, sizes, modification times,
 * plus tsconfig.json and package.json), and rebuilds the retriever when
 * anything differs: an added, removed or edited file is seen by the next call.
 * The index is kept in memory between rebuilds, so a rebuild parses only the
 * changed files; it is written to the index folder after each answer. The
 * folders of the scanned files are watched: a change there starts that
 * check and rebuild at once, so the next call usually finds it done.
 *
 * @example
 * const warm = createWarmRetriever({ root: "/repo", flags: {}, log: (line) => process.stderr.write(line) });
 * const { retriever } = await warm.current();
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import {
  configToRetrieveOptions,
  createIndexMemory,
  createRetriever,
  flushIndexMemory,
  loadConfig,
  scanFiles,
  watchFolders,
  type RetrieveOptions,
  type Retriever,
} from "../index.js";

/** Files outside the scan whose change changes module resolution. */
const SETTINGS_FILES = ["tsconfig.json", "jsconfig.json", "package.json"];

export interface WarmRetrieverOptions {
  /** Absolute root. */
  root: string;
  /** Options given on the command line: they override the root's config file. */
  flags: RetrieveOptions;
  /** One line at a time, for stderr (never stdout: it carries the protocol). */
  log: (line: string) => void;
  /** Watch the root's folders and check them on a change, not only on a call (default true). */
  watch?: boolean;
}

/** The retriever as of the latest check, the options it was built with, and a counter bumped on each rebuild. */
export interface WarmState {
  retriever: Retriever;
  options: RetrieveOptions;
  generation: number;
}

export interface WarmRetriever {
  /** Check the root for changes (rebuilding when there are some) and return the retriever. Calls are served one at a time. */
  current(): Promise<WarmState>;
  /** Stop watching the root. */
  close(): void;
}

async function statKey(path: string): Promise<string> {
  try {
    const info = await stat(path);
    return `${info.size}:${info.mtimeMs}`;
  } catch {
    return "-";
  }
}

/** A string that changes whenever the options, a scanned file or a settings file change; and the scanned files. */
async function fingerprintOf(root: string, options: RetrieveOptions): Promise<{ key: string; paths: string[] }> {
  const scan = await scanFiles(root, { include: options.include, exclude: options.exclude, alsoInclude: options.alsoInclude, maxFileBytes: options.maxFileBytes });
  const settings = await Promise.all(SETTINGS_FILES.map(async (name) => `${name}=${await statKey(join(root, name))}`));
  const files = scan.files.map((f) => `${f.path}=${f.size}:${f.mtimeMs}`);
  return { key: [JSON.stringify(options), ...settings, ...files].join("\n"), paths: scan.files.map((f) => f.path) };
}

export function createWarmRetriever({ root, flags, log, watch: watching = true }: WarmRetrieverOptions): WarmRetriever {
  let state: WarmState | undefined;
  let lastKey: string | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  // a rebuild starts from the previous one in memory (only changed files parsed, the graph updated in place)
  const memory = createIndexMemory();
  const flush = async () => {
    const warning = await flushIndexMemory(memory);
    if (warning) log(`graph-retrieve mcp: ${warning.message}`);
  };

  const refresh = async (): Promise<WarmState> => {
    const loaded = await loadConfig(root);
    const given = Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined));
    const options: RetrieveOptions = { ...configToRetrieveOptions(loaded?.config), ...given };
    const { key, paths } = await fingerprintOf(root, options);
    if (state && key === lastKey) return state;
    // the key holds every path: the folders to watch change only with it
    watch?.follow(paths);
    const started = Date.now();
    const retriever = await createRetriever({ ...options, root, memory });
    state = { retriever, options, generation: (state?.generation ?? 0) + 1 };
    lastKey = key;
    const what = state.generation === 1 ? "indexed" : "re-indexed (files changed)";
    log(`graph-retrieve mcp: ${what} ${paths.length} files under ${root} in ${Date.now() - started} ms${loaded ? ` (config: ${loaded.source})` : ""}`);
    return state;
  };

  // a change seen by the watch: the same check, queued like a call's (a call meanwhile waits for it), once
  // for any number of changes until it starts
  let checkQueued = false;
  const changed = () => {
    if (checkQueued) return;
    checkQueued = true;
    const check = () => {
      checkQueued = false;
      return refresh();
    };
    queue = queue.then(check, check).then(flush, () => undefined);
  };
  const watch = watching ? watchFolders(root, changed, (line) => log(`graph-retrieve mcp: ${line}`)) : undefined;

  return {
    current() {
      const next = queue.then(refresh, refresh);
      // the index is written after the caller has its answer, before the next check
      queue = next.then(flush, () => undefined);
      return next;
    },
    close() {
      watch?.close();
    },
  };
}

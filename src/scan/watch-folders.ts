/**
 * A watch on the root for a resident process (the daemon, the MCP server):
 * one `fs.watch` per folder that holds an indexed file or such a folder
 * (not recursive, so node_modules, dist and the other folders the scan
 * leaves out are never watched). A change there lets the process refresh
 * its index before the next request asks, so the request finds the work
 * done. The watch only saves time: every request still checks every file
 * (a stat each), so an event missed or a folder not watched costs that
 * request the refresh, nothing else.
 */
import { watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import { foldersOf } from "../util/folders.js";

/** More folders than this and nothing is watched (each is an inotify watch on Linux, a limited resource). */
export const MAX_WATCHED_FOLDERS = 4096;

/** Events closer together than this are one change (an editor's save is often several). */
const SETTLE_MS = 2;

export interface FolderWatch {
  /** Watch the folders of these files and their ancestors (paths relative to the root, `/`-separated), and no other. */
  follow(paths: readonly string[]): void;
  /** How many folders are watched. */
  readonly size: number;
  close(): void;
}

/**
 * Watch folders under `root`; `onChange` is called once for each burst of
 * events in them (the events of the first few milliseconds of a change),
 * with the root-relative paths of the entries they named (undefined when
 * one named none, as some platforms' events do: anything may have changed). A
 * folder that cannot be watched (gone, or the system's watch limit
 * reached) is left out, and `log` says so once (a line without the
 * caller's prefix).
 *
 * @example
 * const watch = watchFolders(root, () => scheduleRefresh(), (line) => console.error(`daemon: ${line}`));
 * watch.follow(Object.keys(index.files));
 */
export function watchFolders(root: string, onChange: (paths: ReadonlySet<string> | undefined) => void, log: (line: string) => void): FolderWatch {
  const watchers = new Map<string, FSWatcher>();
  let settling: NodeJS.Timeout | undefined;
  // the entries the burst's events named; undefined once one named none (or a watch failed)
  let named: Set<string> | undefined = new Set();
  const changed = (path?: string) => {
    if (path === undefined) named = undefined;
    else named?.add(path);
    settling ??= setTimeout(() => {
      settling = undefined;
      const paths = named;
      named = new Set();
      onChange(paths);
    }, SETTLE_MS);
  };
  let warned = false;
  const warnOnce = (line: string) => {
    if (warned) return;
    warned = true;
    log(`${line}; requests still see every edit, by checking each file`);
  };
  const unwatch = (folder: string) => {
    watchers.get(folder)?.close();
    watchers.delete(folder);
  };
  return {
    follow(paths) {
      const wanted = foldersOf(paths);
      if (wanted.length > MAX_WATCHED_FOLDERS) {
        for (const folder of [...watchers.keys()]) unwatch(folder);
        warnOnce(`not watching the root: its files are in ${wanted.length} folders (at most ${MAX_WATCHED_FOLDERS})`);
        return;
      }
      const keep = new Set(wanted);
      for (const folder of [...watchers.keys()]) if (!keep.has(folder)) unwatch(folder);
      for (const folder of wanted) {
        if (watchers.has(folder)) continue;
        try {
          const watcher = watch(folder === "" ? root : join(root, folder), { persistent: false }, (_event, name) => {
            const entry = typeof name === "string" ? name : undefined;
            changed(entry === undefined ? undefined : folder === "" ? entry : `${folder}/${entry}`);
          });
          // a folder removed, or the watch lost: the next follow watches it again if it still holds files
          watcher.on("error", () => {
            unwatch(folder);
            changed();
          });
          watchers.set(folder, watcher);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? "error";
          if (code !== "ENOENT") warnOnce(`cannot watch ${folder === "" ? "the root" : folder} (${code})`);
        }
      }
    },
    get size() {
      return watchers.size;
    },
    close() {
      clearTimeout(settling);
      settling = undefined;
      for (const folder of [...watchers.keys()]) unwatch(folder);
    },
  };
}

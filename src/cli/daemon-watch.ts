/**
 * The daemon's watch on its root: one `fs.watch` per folder that holds an
 * indexed file, and the root itself (not recursive, so node_modules, dist
 * and the other folders the scan leaves out are never watched). A change
 * there lets the daemon refresh its index before the next command asks, so
 * the command finds the work done. The watch only saves time: every command
 * still checks every file (a stat each), so an event missed or a folder not
 * watched costs that command the refresh, nothing else.
 */
import { watch, type FSWatcher } from "node:fs";
import { join } from "node:path";

/** More folders than this and nothing is watched (each is an inotify watch on Linux, a limited resource). */
export const MAX_WATCHED_FOLDERS = 4096;

export interface FolderWatch {
  /** Watch the folders of these files (paths relative to the root, `/`-separated), and no other. */
  follow(paths: Iterable<string>): void;
  /** How many folders are watched. */
  readonly size: number;
  close(): void;
}

/**
 * The folders that hold the given files, relative to the root ("." for
 * the root, always in), sorted.
 *
 * @example
 * foldersOf(["src/a.ts", "src/b/c.ts", "index.ts"]); // [".", "src", "src/b"]
 */
export function foldersOf(paths: Iterable<string>): string[] {
  const folders = new Set<string>(["."]);
  for (const path of paths) {
    const slash = path.lastIndexOf("/");
    if (slash > 0) folders.add(path.slice(0, slash));
  }
  return [...folders].sort();
}

/**
 * Watch folders under `root`; `onChange` is called on every event in one of
 * them (bursts are the caller's to coalesce). A folder that cannot be
 * watched (gone, or the system's watch limit reached) is left out, and
 * `log` says so once.
 *
 * @example
 * const watch = watchFolders(root, () => scheduleRefresh(), console.error);
 * watch.follow(Object.keys(index.files));
 */
export function watchFolders(root: string, onChange: () => void, log: (line: string) => void): FolderWatch {
  const watchers = new Map<string, FSWatcher>();
  let warned = false;
  const warnOnce = (line: string) => {
    if (warned) return;
    warned = true;
    log(`graph-retrieve daemon: ${line}; commands still see every edit, by checking each file`);
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
          const watcher = watch(folder === "." ? root : join(root, folder), { persistent: false }, () => onChange());
          // a folder removed, or the watch lost: the next follow watches it again if it still holds files
          watcher.on("error", () => {
            unwatch(folder);
            onChange();
          });
          watchers.set(folder, watcher);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? "error";
          if (code !== "ENOENT") warnOnce(`cannot watch ${folder === "." ? "the root" : folder} (${code})`);
        }
      }
    },
    get size() {
      return watchers.size;
    },
    close() {
      for (const folder of [...watchers.keys()]) unwatch(folder);
    },
  };
}

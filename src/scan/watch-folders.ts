/**
 * A watch on the root for a resident process (the daemon, the MCP server):
 * one `fs.watch` per folder the scan walked (not recursive, so node_modules,
 * dist and the other folders the scan leaves out are never watched). A
 * change there lets the process refresh its index before the next request
 * asks, so the request finds the work done.
 *
 * Where the watch can be trusted to see every change (see
 * `watchIsReliable`: Linux's inotify on a local file system, every walked
 * folder watched, no file reached through a symlink), a request looks at
 * the files it named and at no other; elsewhere every request still checks
 * every file (a stat each), and the watch only saves time.
 */
import { readdirSync, readFileSync, readlinkSync, statfsSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import { folderOf } from "../util/folders.js";

/**
 * Where the system says nothing of its limit (not Linux, or no /proc):
 * watch at most this many folders, the limit older Linux kernels set for
 * every user's inotify watches together.
 */
const DEFAULT_WATCH_LIMIT = 8192;

/**
 * Watches left to the user's other programs (editors, build tools, other
 * daemons), beside those they already hold: an eighth of the limit, and
 * never fewer than this. A daemon that took the last watches would make an
 * editor miss its files' changes.
 */
const MIN_WATCHES_LEFT = 1024;

/** The system's limit on watches, what other processes hold, and how many folders a watch may take. */
export interface WatchLimit {
  /** fs.inotify.max_user_watches, or the default where the system says nothing. */
  max: number;
  /** Watches this user's processes already hold (as far as /proc shows them). */
  held: number;
  /** Folders one watch may take: the limit less what is held and what is left to others. */
  folders: number;
  /** Where `max` came from. */
  source: "fs.inotify.max_user_watches" | "default";
}

/** The inotify watches a process's open inotify instances hold: the `inotify wd:` lines of their fdinfo. */
function heldBy(pid: string): number {
  let held = 0;
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return 0; // another user's process, or gone
  }
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`) !== "anon_inode:inotify") continue;
      for (const line of readFileSync(`/proc/${pid}/fdinfo/${fd}`, "utf8").split("\n")) if (line.startsWith("inotify wd:")) held++;
    } catch {
      // closed meanwhile
    }
  }
  return held;
}

/**
 * How many folders a watch may take on this system: on Linux, the user's
 * inotify limit less the watches this user's processes hold (read from
 * /proc; the limit counts every process of the user) and less those left
 * to the others (an eighth, at least 1024); elsewhere 8,192.
 *
 * @example
 * readWatchLimit(); // { max: 192543, held: 310, folders: 168166, source: "fs.inotify.max_user_watches" }
 */
export function readWatchLimit(): WatchLimit {
  let max: number;
  try {
    max = Number.parseInt(readFileSync("/proc/sys/fs/inotify/max_user_watches", "utf8"), 10);
  } catch {
    return { max: DEFAULT_WATCH_LIMIT, held: 0, folders: DEFAULT_WATCH_LIMIT, source: "default" };
  }
  if (!(max > 0)) return { max: DEFAULT_WATCH_LIMIT, held: 0, folders: DEFAULT_WATCH_LIMIT, source: "default" };
  let held = 0;
  try {
    for (const pid of readdirSync("/proc")) if (/^\d+$/.test(pid)) held += heldBy(pid);
  } catch {
    // no /proc to read: nothing known to be held
  }
  const left = Math.max(MIN_WATCHES_LEFT, Math.floor(max / 8));
  return { max, held, folders: Math.max(0, max - held - left), source: "fs.inotify.max_user_watches" };
}

/** True when `folder` or a folder holding it is in `folders`. */
function isAtOrBelow(folder: string, folders: ReadonlySet<string>): boolean {
  for (let path = folder; path !== ""; path = folderOf(path)) if (folders.has(path)) return true;
  return false;
}

/** Why a watch of `wanted` folders cannot be, within `limit`. */
function overLimit(wanted: number, limit: WatchLimit): string {
  if (limit.source === "default") return `the scan walks ${wanted} folders, more than the ${limit.max} a watch takes here`;
  return `the scan walks ${wanted} folders, and the system's limit leaves ${limit.folders} (fs.inotify.max_user_watches ${limit.max}, ${limit.held} held by running processes, ${limit.max - limit.held - limit.folders} left for them); raise it with sysctl fs.inotify.max_user_watches`;
}

/** Events closer together than this are one change (an editor's save is often several). */
const SETTLE_MS = 2;

/**
 * File systems whose changes inotify reports, every one, as the writing
 * call returns (`statfs` magic numbers: ext2/3/4, xfs, btrfs, tmpfs,
 * overlayfs, zfs, f2fs, bcachefs, ramfs). On a network or FUSE file system
 * a change made elsewhere raises no event, so no watch there is trusted.
 */
const LOCAL_FILE_SYSTEMS = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0x2fc12fc1, 0xf2f52010, 0xca451a4e, 0x858458f6]);

/**
 * Whether a watch of folders under `root` sees every change before a
 * request that follows it: on Linux, inotify queues an event as the
 * writing call returns, so a request sent after an edit finds its event
 * waiting; on a local file system only. macOS's FSEvents and Windows report
 * later, and are not trusted.
 *
 * @example
 * watchIsReliable("/home/me/app"); // true on Linux's ext4
 */
export function watchIsReliable(root: string): boolean {
  if (process.platform !== "linux") return false;
  try {
    return LOCAL_FILE_SYSTEMS.has(Number(statfsSync(root).type));
  } catch {
    return false;
  }
}

/**
 * Events one burst may hold before it counts as a flood that inotify may
 * have cut short (its queue drops what is past `max_queued_events`, and
 * Node says nothing): half that limit, read once.
 */
function floodLimit(): number {
  try {
    const queued = Number.parseInt(readFileSync("/proc/sys/fs/inotify/max_queued_events", "utf8"), 10);
    if (queued > 0) return Math.floor(queued / 2);
  } catch {
    // not Linux, or no /proc: the kernel's default
  }
  return 8192;
}

export interface FolderWatch {
  /** Watch these folders ("" for the root), and no other. */
  followFolders(folders: readonly string[]): FollowOutcome;
  /** Report the events received so far now, without waiting for the burst to settle. */
  flush(): void;
  /** How many folders are watched. */
  readonly size: number;
  /** Every folder the last follow asked for is watched, and none was lost since. */
  readonly complete: boolean;
  /** Why folders the last follow asked for are not watched (undefined when every one is). */
  readonly note: string | undefined;
  close(): void;
}

/** What a follow did: folders newly watched (changes in them before now were not seen), and whether every one asked is watched. */
export interface FollowOutcome {
  added: number;
  complete: boolean;
}

/**
 * Watch folders under `root`; `onChange` is called once for each burst of
 * events in them (the events of the first few milliseconds of a change),
 * with the root-relative paths of the entries they named (undefined when
 * one named none, as some platforms' events do, or the burst was a flood:
 * anything may have changed). A folder that cannot be watched (gone, or the
 * system's watch limit reached) is left out, and `log` says so once (a line
 * without the caller's prefix).
 *
 * @example
 * const watch = watchFolders(root, () => scheduleRefresh(), (line) => console.error(`daemon: ${line}`));
 * watch.followFolders(["", "src", "src/lib"]);
 */
export function watchFolders(
  root: string,
  onChange: (paths: ReadonlySet<string> | undefined) => void,
  log: (line: string) => void,
  { limit = readWatchLimit() }: { limit?: WatchLimit } = {},
): FolderWatch {
  const watchers = new Map<string, FSWatcher>();
  let note: string | undefined;
  const flood = floodLimit();
  let settling: NodeJS.Timeout | undefined;
  let complete = false;
  // the entries the burst's events named; undefined once one named none (or a watch failed, or a flood)
  let named: Set<string> | undefined = new Set();
  let events = 0;
  const report = () => {
    clearTimeout(settling);
    settling = undefined;
    const paths = named;
    named = new Set();
    events = 0;
    onChange(paths);
  };
  // watched folders an event named (in the folder holding them): removed, renamed or made anew since their watch
  // began, for all the watch can tell
  const suspects = new Set<string>();
  const changed = (path?: string) => {
    if (path !== undefined && watchers.has(path)) suspects.add(path);
    if (path === undefined || ++events > flood) named = undefined;
    else named?.add(path);
    settling ??= setTimeout(report, SETTLE_MS);
  };
  let warned = false;
  const warnOnce = (line: string, reason = line) => {
    note = reason;
    if (warned) return;
    warned = true;
    log(`${line}; requests still see every edit, by checking each file`);
  };
  const unwatch = (folder: string) => {
    watchers.get(folder)?.close();
    watchers.delete(folder);
  };
  // the system's watches ran out once: no later follow tries again (each try would take and give back thousands)
  let exhausted = false;
  const followFolders = (wanted: readonly string[]): FollowOutcome => {
    if (exhausted) return { added: 0, complete: false };
    if (wanted.length > limit.folders) {
      for (const folder of [...watchers.keys()]) unwatch(folder);
      const reason = overLimit(wanted.length, limit);
      warnOnce(`not watching the root: ${reason}`, reason);
      complete = false;
      return { added: 0, complete };
    }
    note = undefined;
    const keep = new Set(wanted);
    for (const folder of [...watchers.keys()]) if (!keep.has(folder)) unwatch(folder);
    // a folder removed and made again at its path (a branch switch) is another folder: its old watch sees nothing
    // of it, and says so by no event (babel, a checkout and back: 96 folders left so, 77 of 77 edits in them not
    // seen). One an event named, and every one below it, is watched anew.
    if (suspects.size > 0) {
      for (const folder of [...watchers.keys()]) if (isAtOrBelow(folder, suspects)) unwatch(folder);
      suspects.clear();
    }
    let added = 0;
    complete = true;
    for (const folder of wanted) {
      if (watchers.has(folder)) continue;
      try {
        const own = folder.slice(folder.lastIndexOf("/") + 1);
        const watcher = watch(folder === "" ? root : join(root, folder), { persistent: false }, (_event, name) => {
          const entry = typeof name === "string" ? name : undefined;
          // a watched folder removed or moved names itself, as an entry of its own (or an entry has its name)
          if (entry === own && folder !== "") suspects.add(folder);
          changed(entry === undefined ? undefined : folder === "" ? entry : `${folder}/${entry}`);
        });
        // a folder removed, or the watch lost: the next follow watches it again if it still holds files
        watcher.on("error", () => {
          unwatch(folder);
          complete = false;
          changed();
        });
        watchers.set(folder, watcher);
        added++;
      } catch (error) {
        complete = false;
        const code = (error as NodeJS.ErrnoException).code ?? "error";
        if (code === "ENOSPC") {
          // the system's inotify watches are spent: the user's editors need them more than a faster request
          for (const held of [...watchers.keys()]) unwatch(held);
          exhausted = true;
          const reason = "the system's limit on watches is reached (fs.inotify.max_user_watches)";
          warnOnce(`not watching the root: ${reason}`, reason);
          return { added: 0, complete };
        }
        if (code !== "ENOENT") warnOnce(`cannot watch ${folder === "" ? "the root" : folder} (${code})`);
      }
    }
    return { added, complete };
  };
  return {
    followFolders,
    flush() {
      if (settling) report();
    },
    get size() {
      return watchers.size;
    },
    get complete() {
      return complete;
    },
    get note() {
      return note;
    },
    close() {
      clearTimeout(settling);
      settling = undefined;
      complete = false;
      for (const folder of [...watchers.keys()]) unwatch(folder);
    },
  };
}

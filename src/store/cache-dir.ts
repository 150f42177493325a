/**
 * Where the index of a root lives by default: the OS user cache folder +
 * `graph-retrieve/<hash of the root's real path>`. Pure: the platform, the
 * environment and the home folder are arguments.
 *
 * @example
 * defaultCacheDir("/home/me/app", { platform: "linux", env: {}, homedir: "/home/me" });
 * // "/home/me/.cache/graph-retrieve/3f1c…" (16 hex digits)
 */
import { posix, win32 } from "node:path";
import { crypto } from "../util/builtins.js";

/** What decides the user cache folder. */
export interface CacheDirContext {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  homedir: string;
}

/** Folder under the user cache folder holding one index folder per root. */
export const CACHE_APP_NAME = "graph-retrieve";

/**
 * The user cache folder: `%LOCALAPPDATA%` on Windows, `~/Library/Caches` on
 * macOS, `$XDG_CACHE_HOME` (when absolute) or `~/.cache` elsewhere.
 *
 * @example
 * userCacheBase({ platform: "darwin", env: {}, homedir: "/Users/me" }); // "/Users/me/Library/Caches"
 */
export function userCacheBase(context: CacheDirContext): string {
  const { platform, env, homedir } = context;
  if (platform === "win32") {
    const local = env.LOCALAPPDATA;
    return local && win32.isAbsolute(local) ? local : win32.join(homedir, "AppData", "Local");
  }
  if (platform === "darwin") return posix.join(homedir, "Library", "Caches");
  const xdg = env.XDG_CACHE_HOME;
  // the XDG spec: a relative path is invalid and must be ignored
  return xdg && posix.isAbsolute(xdg) ? xdg : posix.join(homedir, ".cache");
}

/**
 * The index folder of a root: `<user cache>/graph-retrieve/<first 16 hex of sha256(real root)>`.
 *
 * @param realRoot the root's absolute real path (as the scan reports it)
 * @example
 * defaultCacheDir("C:\\code\\app", { platform: "win32", env: { LOCALAPPDATA: "C:\\Users\\me\\AppData\\Local" }, homedir: "C:\\Users\\me" });
 * // "C:\\Users\\me\\AppData\\Local\\graph-retrieve\\…"
 */
export function defaultCacheDir(realRoot: string, context: CacheDirContext): string {
  const join = context.platform === "win32" ? win32.join : posix.join;
  return join(userCacheBase(context), CACHE_APP_NAME, rootKey(realRoot));
}

/** 16 hex digits naming a root's index folder. */
export function rootKey(realRoot: string): string {
  return crypto().createHash("sha256").update(realRoot).digest("hex").slice(0, 16);
}

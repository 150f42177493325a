import { describe, expect, it } from "vitest";
import { CACHE_APP_NAME, defaultCacheDir, rootKey, userCacheBase } from "../../src/store/index.js";

describe("default index folder", () => {
  it("uses $XDG_CACHE_HOME on Linux when it is absolute, else ~/.cache", () => {
    expect(userCacheBase({ platform: "linux", env: { XDG_CACHE_HOME: "/xdg" }, homedir: "/home/me" })).toBe("/xdg");
    expect(userCacheBase({ platform: "linux", env: {}, homedir: "/home/me" })).toBe("/home/me/.cache");
    // a relative XDG_CACHE_HOME is invalid per the spec and ignored
    expect(userCacheBase({ platform: "linux", env: { XDG_CACHE_HOME: "rel/cache" }, homedir: "/home/me" })).toBe("/home/me/.cache");
    expect(userCacheBase({ platform: "freebsd", env: {}, homedir: "/home/me" })).toBe("/home/me/.cache");
  });

  it("uses ~/Library/Caches on macOS and %LOCALAPPDATA% on Windows", () => {
    expect(userCacheBase({ platform: "darwin", env: { XDG_CACHE_HOME: "/xdg" }, homedir: "/Users/me" })).toBe("/Users/me/Library/Caches");
    expect(userCacheBase({ platform: "win32", env: { LOCALAPPDATA: "C:\\Users\\me\\AppData\\Local" }, homedir: "C:\\Users\\me" })).toBe(
      "C:\\Users\\me\\AppData\\Local",
    );
    expect(userCacheBase({ platform: "win32", env: {}, homedir: "C:\\Users\\me" })).toBe("C:\\Users\\me\\AppData\\Local");
  });

  it("names one folder per real root: graph-retrieve/<16 hex of sha256(root)>", () => {
    const dir = defaultCacheDir("/home/me/app", { platform: "linux", env: {}, homedir: "/home/me" });
    expect(dir).toBe(`/home/me/.cache/${CACHE_APP_NAME}/${rootKey("/home/me/app")}`);
    expect(rootKey("/home/me/app")).toMatch(/^[0-9a-f]{16}$/);
    expect(rootKey("/home/me/app")).not.toBe(rootKey("/home/me/app2"));
    expect(defaultCacheDir("C:\\code\\app", { platform: "win32", env: { LOCALAPPDATA: "D:\\cache" }, homedir: "C:\\Users\\me" })).toBe(
      `D:\\cache\\graph-retrieve\\${rootKey("C:\\code\\app")}`,
    );
  });
});

// A working tree of one training repository, moved from commit to commit:
// a real checkout that borrows the mirror's objects (git alternates), HEAD
// detached at the commit and no branch, tag or remote, so that what reads
// the tree (its history included) sees the repository as it was at that
// commit and nothing later. Blobs of 4 MiB and more are left out (sparse
// checkout), as the benchmark harness does, so that the tree is the same
// from a full mirror and from a size-filtered snapshot.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const MAX_BLOB = 4 * 1024 * 1024;
const GIT_ENV = { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" };
for (const key of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES"]) delete GIT_ENV[key];

/** git with `args`, its stdout; throws with git's stderr. */
export function git(args, { cwd, gitDir } = {}) {
  const argv = [...(gitDir ? ["--git-dir", gitDir] : []), "-c", "core.quotepath=off", ...args];
  try {
    return execFileSync("git", argv, { cwd, env: GIT_ENV, encoding: "utf8", maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    throw new Error(`git ${args.join(" ").slice(0, 160)} failed: ${String(error.stderr ?? error.message).trim().slice(-400)}`);
  }
}

/** The git directory of `owner/name` under a mirrors folder (`DIR/owner+name/repo`, bare or not). */
export function mirrorGitDir(mirrors, repo) {
  const base = path.join(mirrors, repo.replace("/", "+"));
  for (const dir of [path.join(base, "repo", ".git"), path.join(base, "repo"), base]) {
    if (fs.existsSync(path.join(dir, "HEAD")) && fs.existsSync(path.join(dir, "objects"))) return dir;
  }
  throw new Error(`no git directory for ${repo} under ${mirrors} (fetch it first: github:${repo})`);
}

function sparsePattern(p) {
  return "!/" + p.replace(/[\\*?[\]!#]/g, (c) => "\\" + c);
}

/** Opens (or creates) the tree at `dir` over the mirror's objects. */
export function openTree(dir, mirror) {
  const objects = path.join(mirror, "objects");
  const alternates = path.join(dir, ".git", "objects", "info", "alternates");
  let ok = false;
  try {
    ok = fs.readFileSync(alternates, "utf8").trim() === objects;
  } catch {}
  if (!ok) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    git(["init", "-q"], { cwd: dir });
    for (const [k, v] of [["core.logAllRefUpdates", "false"], ["gc.auto", "0"], ["advice.detachedHead", "false"], ["core.autocrlf", "false"], ["core.hooksPath", "/dev/null"]]) {
      git(["config", k, v], { cwd: dir });
    }
    fs.mkdirSync(path.dirname(alternates), { recursive: true });
    fs.writeFileSync(alternates, objects + "\n");
  }
  return {
    dir,
    mirror,
    /** Moves the tree to `sha`: exactly that commit's files (large blobs left out), nothing untracked. */
    moveTo(sha) {
      const big = git(["ls-tree", "-r", "-l", "-z", sha], { cwd: dir })
        .split("\0")
        .filter(Boolean)
        .map((line) => {
          const tab = line.indexOf("\t");
          const [, type, , size] = line.slice(0, tab).trim().split(/\s+/);
          return { type, size: Number(size), path: line.slice(tab + 1) };
        })
        .filter((e) => e.type === "blob" && !(e.size < MAX_BLOB))
        .map((e) => e.path);
      const sparseFile = path.join(dir, ".git", "info", "sparse-checkout");
      fs.mkdirSync(path.dirname(sparseFile), { recursive: true });
      fs.writeFileSync(sparseFile, ["/*", ...big.map(sparsePattern)].join("\n") + "\n");
      git(["config", "core.sparseCheckout", "true"], { cwd: dir });
      git(["checkout", "-q", "-f", "--detach", "--no-recurse-submodules", sha], { cwd: dir });
      git(["clean", "-q", "-ffdx"], { cwd: dir });
      for (const ref of git(["for-each-ref", "--format=%(refname)"], { cwd: dir }).split("\n").filter(Boolean)) {
        git(["update-ref", "-d", ref], { cwd: dir });
      }
      const head = git(["rev-parse", "HEAD"], { cwd: dir }).trim();
      if (head !== sha) throw new Error(`the tree at ${dir} is at ${head}, not ${sha}`);
      return dir;
    },
  };
}

/** The tasks of one corpus in the order their parents were committed (ancestors first). */
export function inHistoryOrder(tasks, mirror) {
  const parents = [...new Set(tasks.map((t) => t.parent))];
  const order = git(["rev-list", "--topo-order", "--reverse", ...parents], { gitDir: mirror }).split("\n").filter(Boolean);
  const rank = new Map(order.map((sha, i) => [sha, i]));
  return [...tasks].sort((a, b) => (rank.get(a.parent) ?? 0) - (rank.get(b.parent) ?? 0) || (a.id < b.id ? -1 : 1));
}

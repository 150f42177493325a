import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
/** The package version (src/cli and dist/cli both sit two levels below package.json). */
export const VERSION: string = (require("../../package.json") as { version: string }).version;

export const HELP = `graph-retrieve ${VERSION}: find the files a coding agent must read for a task.

Usage:
  graph-retrieve "<task>" [options]        retrieve the context for a task
  graph-retrieve - [options] < issue.md    … the task read from stdin (only with -: never waits on it otherwise)
  graph-retrieve --task-file FILE          … the task read from a file
  graph-retrieve --task TEXT               … the task as given, never taken for a command ("--task index")
  graph-retrieve graph [options]           dump the import/symbol graph
  graph-retrieve index [--root DIR]        build or refresh the persistent index (one summary line)
  graph-retrieve mcp [--root DIR]          serve the MCP tools over stdio (for agents)
  graph-retrieve daemon start|stop|status|run [--root DIR]
                                           keep the root's index in memory: commands answer from it

Retrieve options:
  --root DIR            codebase root (default: the current folder)
  --format FORMAT       text (default), json, md (context pack), dot or svg (the retrieved subgraph)
  --max-cycles N        retrieval cycles, 1 or more (default 3)
  --budget TOKENS       token budget for the context and the md pack (default 20000)
  --include GLOB        replaces what is read: only files matching (repeatable; 'dist/**' reads dist alone)
  --also-include GLOB   adds to what is read: files matching too, in dist or node_modules as well (repeatable)
  --exclude GLOB        leave files out (repeatable; wins over both). Globs are relative to the root
  --keywords A,B        extra keywords for the first query (repeatable)
  --strategy NAME       graph (default: the learned ranker), bm25 or pagerank
  --model FILE          a ranker model trained by npm run train (default: the shipped data/ranker.bin,
                        or data/ranker-no-history.bin for a codebase without git history)
  --no-history          read no git history (by default the last 5000 commits of a root whose .git is in it)
  --history-commits N   read the last N commits of the history (default 5000)
  --dot FILE            also write the retrieved subgraph as Graphviz DOT to FILE
  --svg FILE            also write it as an SVG picture (built-in WASM Graphviz)
  --force               let --dot / --svg replace an existing FILE (refused otherwise)
  --explain PATH        print why one file got its score: terms, edges, cycle, gaps

Graph options:
  --root DIR            codebase root (default: the current folder)
  --format FORMAT       json (default) or dot (Graphviz: | dot -Tsvg > graph.svg)

MCP server (graph-retrieve mcp):
  tools retrieve_context, explain_file, graph_neighbors, find_symbol; the
  index is kept warm and refreshed when files change. --root, --include, --also-include,
  --exclude, --max-cycles, --budget, --strategy and --max-file-bytes apply;
  logs on stderr.

Daemon (graph-retrieve daemon start):
  indexes the root, then serves in the background; every retrieval, graph
  and index command for that root is answered by it, from memory. It watches
  the folders the scan walked and refreshes the index as soon as a file
  changes; on Linux and a local file system a command then looks only at
  the files the watch named, elsewhere at every file (daemon status says
  which; --no-watch: only when a command asks). It stops
  after --idle-minutes N without a request (default 30) or on daemon stop;
  daemon status prints its pid (exit 1: none runs; --format json); daemon
  run serves in the foreground. --include, --also-include, --exclude,
  --max-file-bytes and --cache-dir apply; its socket and log are in the
  index folder.

Config: graph-retrieve.config.json in the root, or a "graph-retrieve" key in
its package.json: include, exclude, alsoInclude, maxCycles, budget, strategy,
thesaurus, glossary, history. Every command checks it. Flags given on the
command line override it.

Common:
  --cache-dir DIR       index folder (default: the user cache folder, e.g. ~/.cache/graph-retrieve/<root hash>)
  --no-cache            read and parse everything; write no index
  --max-file-bytes N    skip files larger than N bytes (default 1048576)
  --timeout SECONDS     give up after SECONDS: one line on stderr, exit 1 (default: none)
  -q, --quiet           no warnings on stderr
  -h, --help            this help
  -v, --version         the version

Exit codes (a failure ends with one line saying why):
  0 ok
  1 the run could not do it: no source file under the root, include globs
    that match nothing (or an absolute one: globs are relative to the root),
    a missing root or --task-file, an index folder that cannot be written,
    --timeout
  2 usage: an unknown option (with the closest one), a bad value, no task or
    an empty one, a lone word one edit from a command ("indx": did you mean
    index? --task indx retrieves for the word), an invalid config file
Examples:
  graph-retrieve "Fix the authentication token expiry bug" --root ./service
  graph-retrieve graph --root ./service --format dot | dot -Tsvg > graph.svg
  graph-retrieve "Fix the token expiry bug" --format md --budget 8000 > context.md
  graph-retrieve "Fix the token expiry bug" --svg retrieval.svg --explain src/auth/tokens.ts
`;

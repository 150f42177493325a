/**
 * grammars/python on small real-looking files, through the same path as
 * TypeScript's (parseSource → extractTreeFacts): definitions with their
 * docstrings, decorators and containers, module-level assignments, every
 * import form, references, vocabulary, and broken code.
 */
import { describe, expect, test } from "vitest";
import { isDeclarationPath, languageForPath, parseSource } from "../../src/parse/index.js";
import type { Definition, ParsedFile, TermCounts } from "../../src/types.js";

function py(text: string, path = "app/tokens.py"): ParsedFile {
  return parseSource(path, text, "python", isDeclarationPath(path));
}

/** Term → count, from a vocabulary field's parallel arrays. */
function countsOf(field: TermCounts): Record<string, number> {
  return Object.fromEntries(field.terms.map((term, i) => [term, field.counts[i] as number]));
}

const TOKENS = [
  '"""Access tokens: issue, verify, expire."""', // 1
  "import hmac",
  "from dataclasses import dataclass",
  "",
  "DEFAULT_TTL: int = 3600", // 5
  "ISSUER, AUDIENCE = 'auth', 'api'",
  "_clock = time.monotonic",
  "",
  "",
  "# Raised when a token is past its expiry.", // 10
  "# Carries the token's claims.",
  "class ExpiredToken(errors.AuthError):",
  "    pass",
  "",
  "", // 15
  "@dataclass(frozen=True)",
  "class TokenService(BaseService):",
  '    """Issue and verify signed access tokens.',
  "",
  "    Tokens are HMAC-signed and expire after `ttl` seconds.", // 20
  '    """',
  "",
  "    ttl: int = DEFAULT_TTL",
  "    algorithm = 'sha256'",
  "", // 25
  "    def issue(self, user_id: str, *, scopes: list[str] | None = None) -> str:",
  '        """Issue a token for a user."""',
  "        payload = encode_claims(user_id, scopes or [], self.ttl)",
  "        return sign(payload, key=self.secret)",
  "", // 30
  "    @staticmethod",
  "    def verify(token: str) -> Claims:",
  "        claims = decode(token)",
  "        if claims.expired:",
  "            raise ExpiredToken(claims)", // 35
  "        return claims",
  "",
  "    @property",
  "    def secret(self) -> bytes:",
  "        return hmac.new(self.key, digestmod=self.algorithm).digest()", // 40
  "",
  "",
  "def rotate(service: TokenService) -> TokenService:",
  "    def fresh():",
  "        return TokenService(ttl=service.ttl)", // 45
  "    return fresh()",
  "",
  "",
  "async def revoke_all(user_id: str) -> None:",
  "    await store.delete_tokens(user_id)", // 50
  "",
  "",
  "type Claims = dict[str, object]",
  "",
].join("\n");

describe("definitions", () => {
  const parsed = py(TOKENS);
  const byName = (name: string, container?: string): Definition | undefined =>
    parsed.definitions.find((d) => d.name === name && d.container === container);

  test("module-level classes, functions, assignments and type aliases; methods and class attributes with their class", () => {
    expect(parsed.definitions.map((d) => [d.name, d.kind, d.container ?? "", d.startLine, d.endLine])).toEqual([
      ["DEFAULT_TTL", "variable", "", 5, 5],
      ["AUDIENCE", "variable", "", 6, 6],
      ["ISSUER", "variable", "", 6, 6],
      ["_clock", "variable", "", 7, 7],
      ["ExpiredToken", "class", "", 12, 13],
      ["TokenService", "class", "", 17, 40],
      ["ttl", "variable", "TokenService", 23, 23],
      ["algorithm", "variable", "TokenService", 24, 24],
      ["issue", "method", "TokenService", 26, 29],
      ["verify", "method", "TokenService", 32, 36],
      ["secret", "method", "TokenService", 39, 40],
      ["rotate", "function", "", 43, 46],
      ["revoke_all", "function", "", 49, 50],
      ["Claims", "type", "", 53, 53],
    ]);
  });

  test("every module-level name is exported: any module can import it, an underscore notwithstanding", () => {
    expect(parsed.definitions.every((d) => d.exported)).toBe(true);
  });

  test("a decorated definition starts at `def` / `class`, its signature the line that names it", () => {
    expect(byName("TokenService")?.signature).toBe("class TokenService(BaseService):");
    expect(byName("verify", "TokenService")?.signature).toBe("def verify(token: str) -> Claims:");
    expect(byName("revoke_all")?.signature).toBe("async def revoke_all(user_id: str) -> None:");
  });

  test("the doc is the docstring, unquoted and dedented; else the # lines above; a class's docstring is not its first method's", () => {
    expect(byName("TokenService")?.doc).toBe("Issue and verify signed access tokens.\n\nTokens are HMAC-signed and expire after `ttl` seconds.");
    expect(byName("issue", "TokenService")?.doc).toBe("Issue a token for a user.");
    expect(byName("ExpiredToken")?.doc).toBe("Raised when a token is past its expiry.\nCarries the token's claims.");
    expect(byName("ttl", "TokenService")?.doc).toBeUndefined();
    expect(byName("verify", "TokenService")?.doc).toBeUndefined();
  });

  test("nested functions and locals are not definitions", () => {
    expect(parsed.definitions.map((d) => d.name)).not.toContain("fresh");
    expect(parsed.definitions.map((d) => d.name)).not.toContain("payload");
    expect(parsed.definitions.map((d) => d.name)).not.toContain("claims");
  });

  test("definitions under a module-level if, try or with are module level", () => {
    const guarded = py(
      [
        "import sys",
        "if sys.version_info >= (3, 11):",
        "    import tomllib as toml",
        "    def load(path): ...",
        "else:",
        "    def load(path): ...",
        "try:",
        "    from ujson import dumps",
        "except ImportError:",
        "    dumps = None",
        "def outer():",
        "    if True:",
        "        def hidden(): ...",
      ].join("\n"),
    );
    expect(guarded.definitions.map((d) => [d.name, d.startLine])).toEqual([
      ["load", 4],
      ["load", 6],
      ["dumps", 10],
      ["outer", 11],
    ]);
  });
});

describe("imports", () => {
  const source = [
    "import os", // 1
    "import os.path as osp",
    "import shop.storage.db, json",
    "from shop.models import Order, Customer as Buyer",
    "from . import pricing", // 5
    "from ..payments import charge",
    "from .helpers import *",
    "from __future__ import annotations",
    "from typing import TYPE_CHECKING",
    "if TYPE_CHECKING:", // 10
    "    from shop.session import Session",
    "def lazy():",
    "    import yaml",
    "    return yaml",
  ].join("\n");
  const parsed = py(source, "shop/services/orders.py");

  test("each form, in order: a module import binds its first name; `from m import n` is m and m:n", () => {
    expect(parsed.imports.map(({ specifier, kind, names, typeOnly, line }) => [line, specifier, kind, names.map((n) => `${n.name} as ${n.alias}`).join(", "), typeOnly])).toEqual([
      [1, "os", "static", "* as os", false],
      [2, "os.path", "static", "* as osp", false],
      [3, "shop.storage.db", "static", "* as shop", false],
      [3, "json", "static", "* as json", false],
      [4, "shop.models", "static", "Order as Order, Customer as Buyer", false],
      [4, "shop.models:Order", "static", "* as Order", false],
      [4, "shop.models:Customer", "static", "* as Buyer", false],
      [5, ".", "static", "pricing as pricing", false],
      [5, ".:pricing", "static", "* as pricing", false],
      [6, "..payments", "static", "charge as charge", false],
      [6, "..payments:charge", "static", "* as charge", false],
      [7, ".helpers", "static", "* as *", false],
      [9, "typing", "static", "TYPE_CHECKING as TYPE_CHECKING", false],
      [9, "typing:TYPE_CHECKING", "static", "* as TYPE_CHECKING", false],
      [11, "shop.session", "static", "Session as Session", true],
      [11, "shop.session:Session", "static", "* as Session", true],
      [13, "yaml", "static", "* as yaml", false],
    ]);
    expect(parsed.exports).toEqual([]);
  });

  test("a package's __init__.py re-exports what it imports from, as a barrel", () => {
    const init = py(["from .models import Order, Customer as Buyer", "from . import views", "from .util import *", "import shop.config"].join("\n"), "shop/__init__.py");
    expect(init.imports.map((f) => [f.specifier, f.kind])).toEqual([
      [".models", "reexport"],
      [".models:Order", "reexport"],
      [".models:Customer", "reexport"],
      [".", "reexport"],
      [".:views", "reexport"],
      [".util", "reexport"],
      ["shop.config", "static"],
    ]);
    expect(init.exports).toEqual([
      { name: "Order", kind: "named", from: ".models" },
      { name: "Buyer", kind: "named", from: ".models", local: "Customer" },
      { name: "views", kind: "named", from: "." },
      { name: "*", kind: "star", from: ".util" },
    ]);
    // re-exported names are the modules' they come from, not the package's definitions
    expect(init.vocabulary.definitions.terms).toEqual([]);
  });

  test("import bindings and module paths are not uses", () => {
    const names = parsed.references.map((r) => r.name);
    for (const bound of ["os", "osp", "Order", "Buyer", "pricing", "charge", "annotations", "Session", "shop", "models", "payments", "helpers"]) {
      expect(names, bound).not.toContain(bound);
    }
    expect(parsed.references).toContainEqual({ name: "yaml", kind: "identifier", count: 1 });
  });
});

describe("references", () => {
  const parsed = py(TOKENS);
  const kindOf = (name: string) => parsed.references.find((r) => r.name === name)?.kind;

  test("calls, member calls, decorators, annotations and base classes, with their kinds", () => {
    expect(kindOf("encode_claims")).toBe("call");
    expect(kindOf("ExpiredToken")).toBe("call");
    expect(kindOf("dataclass")).toBe("call");
    expect(kindOf("staticmethod")).toBe("call");
    expect(kindOf("delete_tokens")).toBe("member-call");
    expect(kindOf("digest")).toBe("member-call");
    expect(kindOf("BaseService")).toBe("type");
    expect(kindOf("AuthError")).toBe("type");
    expect(kindOf("bytes")).toBe("type");
    // an attribute read of a module (`time.monotonic`) or any object but self or cls (`service.ttl`, not `self.ttl`)
    expect(kindOf("monotonic")).toBe("identifier");
    expect(parsed.references.find((r) => r.name === "ttl")).toEqual({ name: "ttl", kind: "identifier", count: 1 });
  });

  test("a parameter's use counts, its declaration does not; keyword-argument names and self never do", () => {
    const names = parsed.references.map((r) => r.name);
    for (const bound of ["self", "key", "frozen", "digestmod"]) expect(names, bound).not.toContain(bound);
    // user_id is declared twice and used twice (in issue and revoke_all)
    expect(parsed.references.find((r) => r.name === "user_id")).toEqual({ name: "user_id", kind: "identifier", count: 2 });
    // the module uses its own class, in two annotations and a call: counted, the strongest kind kept (the graph drops a file's uses of its own names)
    expect(parsed.references.find((r) => r.name === "TokenService")).toEqual({ name: "TokenService", kind: "call", count: 3 });
  });
});

describe("vocabulary", () => {
  const parsed = py(TOKENS);

  test("docstrings and comments are prose once each; an f-string's substitutions are code, its `!r` is not", () => {
    const comments = countsOf(parsed.vocabulary.comments);
    expect(comments.access).toBe(2); // the module's docstring and the class's, each once
    expect(comments.expir).toBe(3);
    const formatted = py('def show(user):\n    return f"{user.name!r} has {len(user.tokens)} tokens"\n');
    const identifiers = countsOf(formatted.vocabulary.identifiers);
    expect(identifiers.user).toBe(3); // the parameter and its two uses, as TypeScript's identifiers count
    expect(identifiers.len).toBe(1);
    expect(identifiers.r).toBeUndefined();
    expect(formatted.references.map((r) => r.name)).toEqual(["len", "name", "tokens", "user"]);
  });
});

describe("files", () => {
  test(".py and .pyi are Python; a stub is a type source like .d.ts", () => {
    expect(languageForPath("app/models.py")).toBe("python");
    expect(languageForPath("app/models.pyi")).toBe("python");
    expect(isDeclarationPath("app/models.pyi")).toBe(true);
    expect(isDeclarationPath("app/models.py")).toBe(false);
    const stub = py("class Session:\n    def get(self, url: str) -> Response: ...\n", "app/session.pyi");
    expect(stub.isDeclaration).toBe(true);
    expect(stub.definitions.map((d) => d.name)).toEqual(["Session", "get"]);
  });

  test("syntax errors: never throws, the facts around the error are kept, no TypeScript fallback", () => {
    const broken = py(["import os", "def ok():", "    return 1", "def broken(:", "    pass", "class After:", "    def m(self): ..."].join("\n"));
    expect(broken.hasSyntaxErrors).toBe(true);
    expect(broken.imports.map((f) => f.specifier)).toEqual(["os"]);
    expect(broken.definitions.map((d) => d.name)).toEqual(expect.arrayContaining(["ok", "After", "m"]));
  });

  test("a clean file has no syntax errors", () => {
    expect(py(TOKENS).hasSyntaxErrors).toBe(false);
  });
});

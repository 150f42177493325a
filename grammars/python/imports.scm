; Imports of Python.
;
; One match a bound module or name: `@import.source` is the module path as
; written (`a.b`, `.`, `..a`), `@import.name` the name imported from it (`*`
; for `from a import *`), `@import.alias` the local name. `import a.b.c`
; binds `a`, its path's first name. src/parse/read-import-captures.ts turns
; the matches into ImportFacts, one a statement (`@import.from`) or a module
; (`@import.module`). `from __future__ import …` is no import of a file.

(import_statement
  name: (dotted_name . (identifier) @import.alias) @import.source) @import.module
(import_statement
  name: (aliased_import
    name: (dotted_name) @import.source
    alias: (identifier) @import.alias)) @import.module

(import_from_statement
  module_name: (_) @import.source
  name: (dotted_name) @import.name) @import.from
(import_from_statement
  module_name: (_) @import.source
  name: (aliased_import
    name: (dotted_name) @import.name
    alias: (identifier) @import.alias)) @import.from
(import_from_statement
  module_name: (_) @import.source
  (wildcard_import) @import.name) @import.from

; `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`): the imports of its block are type-only
((if_statement
  condition: [(identifier) @import.condition (attribute attribute: (identifier) @import.condition)]
  consequence: (block) @import.type-only)
  (#eq? @import.condition "TYPE_CHECKING"))

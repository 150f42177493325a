; Imports and exports of TypeScript and JavaScript.
;
; Statements are captured whole; the code reads their few children (clause,
; specifiers, `type` keywords, source). Calls capture their specifier.

(import_statement) @import.statement
(export_statement) @export.statement

; import("x") with a string literal
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @import.source))) @import.dynamic

; require("x")
((call_expression
  function: (identifier) @import.callee
  arguments: (arguments . (string (string_fragment) @import.source) .)) @import.require
  (#eq? @import.callee "require"))

; /// <reference path="…" /> and /// <reference types="…" />
((comment) @import.reference
  (#match? @import.reference "^///[ \t]*<reference"))

; Definitions, references and docstrings of Python.
;
; The capture names are those of grammars/typescript/tags.scm (see its header
; and src/parse/extract-tree-facts.ts): `@definition.<kind>` / `@reference.<kind>`
; on the outer node with the name inside as `@name`, `@container` the class body
; of a member, `@local.*` names bound where they stand (never uses), `@term.*`
; vocabulary, `@skip` spans the identifier scan skips. Two more: `@doc`, a
; definition's docstring (the string that opens its body), read as its doc,
; and `@object`, the object an attribute is read from, for a predicate.
; Whether a definition is module level (and so kept) is decided in code: the
; statements of the module, of a module-level `if`, `try` or `with` (`if
; TYPE_CHECKING:`, `try: import x except ImportError: …`) and a decorated
; definition's definition are.

; ------------------------------------------------------------- definitions

(class_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc)?)) @definition.class
(function_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc)?)) @definition.function
; `type Alias = …` (Python 3.12)
(type_alias_statement . (type (identifier) @name)) @definition.type

; `NAME = …`, `NAME: T = …`, `a, b = …`: a module-level binding is a variable;
; one inside a function is a local (bound, not kept)
(assignment left: (identifier) @name) @definition.variable
(assignment left: (pattern_list (identifier) @name)) @definition.variable
(assignment left: (tuple_pattern (identifier) @name)) @definition.variable

; Methods and class attributes; `@container` is the class body holding them.
(class_definition
  body: (block
    (function_definition
      name: (identifier) @name
      body: (block . (expression_statement (string) @doc)?)) @definition.method) @container)
(class_definition
  body: (block
    (decorated_definition
      definition: (function_definition
        name: (identifier) @name
        body: (block . (expression_statement (string) @doc)?)) @definition.method)) @container)
(class_definition
  body: (block
    (expression_statement (assignment left: (identifier) @name) @definition.variable)) @container)

; -------------------------------------------------------------- references

(call function: (identifier) @name) @reference.call
(call function: (attribute attribute: (identifier) @name)) @reference.member-call
; `@app.route` and `@property` call the decorator
(decorator (identifier) @reference.call)
(decorator (attribute attribute: (identifier) @name) @reference.member-call)
; `payments.PaymentError`: a name read from a module (or from any object but
; self and cls: which the object is, the graph tells by the module imports)
((attribute object: (identifier) @object attribute: (identifier) @name) @reference.identifier
  (#not-any-of? @object "self" "cls"))
; annotations and base classes
(type (identifier) @reference.type)
(type (attribute attribute: (identifier) @name) @reference.type)
(generic_type (identifier) @reference.type)
(class_definition superclasses: (argument_list (identifier) @reference.type))
(class_definition superclasses: (argument_list (attribute attribute: (identifier) @name) @reference.type))

; ---------------------------------------------- bound here, so not a use

(parameters (identifier) @local.definition)
(lambda_parameters (identifier) @local.definition)
(typed_parameter (identifier) @local.definition)
(default_parameter name: (identifier) @local.definition)
(typed_default_parameter name: (identifier) @local.definition)
(list_splat_pattern (identifier) @local.definition)
(dictionary_splat_pattern (identifier) @local.definition)
(for_statement left: (identifier) @local.definition)
(for_statement left: (pattern_list (identifier) @local.definition))
(for_in_clause left: (identifier) @local.definition)
(for_in_clause left: (pattern_list (identifier) @local.definition))
(as_pattern alias: (as_pattern_target (identifier) @local.definition))
(named_expression name: (identifier) @local.definition)
(global_statement (identifier) @local.definition)
(nonlocal_statement (identifier) @local.definition)
; an import's module path and bound names (the imports are read from imports.scm)
(import_statement (dotted_name (identifier) @local.import))
(import_from_statement (dotted_name (identifier) @local.import))
(future_import_statement (dotted_name (identifier) @local.import))
(relative_import (dotted_name (identifier) @local.import))
(aliased_import (dotted_name (identifier) @local.import))
(aliased_import alias: (identifier) @local.import)
; `f(key=value)`, `class A(metaclass=M)`: the key is a parameter's name, not a use
(keyword_argument name: (identifier) @local.property)

; ------------------------------------- vocabulary and spans the scan skips

(comment) @term.comment
; a string standing as a statement is documentation: a module's, class's or
; function's docstring, or an attribute's
(expression_statement (string) @term.doc)
(string_content) @term.string

; literals, for the messages a task quotes (src/parse/read-literals.ts):
; each string, strings side by side (one string to Python), and `+` chains
(string) @literal.string
(concatenated_string) @literal.string
(binary_operator operator: "+") @literal.concat

; a string's text, not its `{…}` substitutions, which are code
(string_start) @skip
(string_content) @skip
(string_end) @skip
; `!r` in `f"{x!r}"`
(type_conversion) @skip

; Definitions and references of TypeScript and JavaScript.
;
; Plain identifiers are not captured one by one (that is most of a file's
; nodes): src/parse/scan-identifiers.ts finds them in the code text, outside
; the `@skip` spans, and counts those not bound here (`@local.*`) as
; `identifier` uses unless a pattern below gave the spot a stronger kind.
;
; Tags convention: `@definition.<kind>` / `@reference.<kind>` on the outer node
; with the name inside as `@name`. When the outer node IS the name (a plain
; identifier, a type name) the pattern captures it once, without `@name`.
; `@local.*` marks names that are bound here and are not uses (parameters,
; import bindings, re-exported names): they never count as references.
; `@term.identifier` adds a name to the file's vocabulary only.
; Whether a definition is module level (and so kept) is decided in code.

; ------------------------------------------------------------- definitions

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.function
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(internal_module name: [(identifier) (nested_identifier)] @name) @definition.namespace
(module name: (identifier) @name) @definition.namespace

; `const f = () => …` is a function; any other binding a variable.
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(variable_declarator name: (identifier) @name) @definition.variable
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @name)) @definition.variable
(variable_declarator name: (object_pattern (pair_pattern value: (identifier) @name))) @definition.variable
(variable_declarator name: (array_pattern (identifier) @name)) @definition.variable

; Class and interface members; `@container` is the body holding them.
(class_body
  (method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.method) @container
(class_body
  (method_signature name: [(property_identifier) (private_property_identifier)] @name) @definition.method) @container
(class_body
  (abstract_method_signature name: [(property_identifier) (private_property_identifier)] @name) @definition.method) @container
(class_body
  (public_field_definition
    name: [(property_identifier) (private_property_identifier)] @name
    value: [(arrow_function) (function_expression)]) @definition.method) @container
(class_body
  (public_field_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.variable) @container
(interface_body
  (method_signature name: (property_identifier) @name) @definition.method) @container

; -------------------------------------------------------------- references

(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (member_expression property: (property_identifier) @name)) @reference.member-call
(new_expression constructor: (identifier) @name) @reference.new
(new_expression
  constructor: (member_expression property: (property_identifier) @name)) @reference.new
(type_identifier) @reference.type

; ---------------------------------------------- bound here, so not a use

(required_parameter pattern: (identifier) @local.definition)
(optional_parameter pattern: (identifier) @local.definition)
(rest_pattern (identifier) @local.definition)
(arrow_function parameter: (identifier) @local.definition)
(catch_clause parameter: (identifier) @local.definition)
(type_parameter name: (type_identifier) @local.definition)
(pair_pattern value: (identifier) @local.definition)
(pair_pattern key: (property_identifier) @local.property)
(shorthand_property_identifier_pattern) @local.definition
(array_pattern (identifier) @local.definition)
(function_expression name: (identifier) @local.definition)
(class name: (type_identifier) @local.definition)
(import_clause (identifier) @local.import)
(import_specifier (identifier) @local.import)
(namespace_import (identifier) @local.import)
(import_require_clause (identifier) @local.import)
(export_specifier alias: (identifier) @local.export)
(namespace_export (identifier) @local.export)
(export_statement
  (export_clause (export_specifier name: (identifier) @local.export))
  source: (string))

; Property names that are declared, not used.
(property_signature name: (property_identifier) @local.property)
(pair key: (property_identifier) @local.property)
(object (method_definition name: (property_identifier) @local.property))
(enum_body (property_identifier) @local.property)
(enum_assignment name: (property_identifier) @local.property)

; ------------------------------------- vocabulary and spans the scan skips

(comment) @term.comment
(string_fragment) @term.string

; literals, for the messages a task quotes (src/parse/read-literals.ts):
; each string and template literal, and `+` chains that join them
(string) @literal.string
(template_string) @literal.string
(binary_expression operator: "+") @literal.concat
(string) @skip
(template_string (string_fragment) @skip)
; an escape in a string lies in its `(string)` span already: capturing it again
; cost a fifth of all captures on date-fns' locales
(template_string (escape_sequence) @skip)
(ERROR (escape_sequence) @skip)
(regex) @skip

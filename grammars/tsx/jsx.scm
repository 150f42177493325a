; JSX element references, added to the typescript queries for the tsx grammar.
; Only capitalised names are components; `<div>` is an intrinsic element.

(jsx_opening_element
  name: (identifier) @name
  (#match? @name "^[A-Z]")) @reference.jsx
(jsx_self_closing_element
  name: (identifier) @name
  (#match? @name "^[A-Z]")) @reference.jsx
(jsx_opening_element
  name: (member_expression property: (property_identifier) @name)) @reference.jsx
(jsx_self_closing_element
  name: (member_expression property: (property_identifier) @name)) @reference.jsx

; Closing tags repeat the opening name; intrinsic elements are not names.
(jsx_closing_element name: (identifier) @local.closing)
((jsx_opening_element name: (identifier) @local.intrinsic)
  (#match? @local.intrinsic "^[a-z]"))
((jsx_self_closing_element name: (identifier) @local.intrinsic)
  (#match? @local.intrinsic "^[a-z]"))

; Attribute names are properties, text is prose.
(jsx_attribute (property_identifier) @local.attribute)
(jsx_text) @skip

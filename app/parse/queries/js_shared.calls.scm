; JavaScript's and TypeScript's (and TSX's) shared call-graph patterns, read after each
; language's own file.
; A module's object of its functions (`export const Jwt = { sign, verify: verifyToken }`):
; `Jwt.sign()` calls `sign`.
(program (lexical_declaration (variable_declarator name: (identifier) @object_name
  value: (object [(shorthand_property_identifier) @object_key
                  (pair key: (property_identifier) @object_key value: (identifier) @object_value)]))))
(program (export_statement declaration: (lexical_declaration (variable_declarator
  name: (identifier) @object_name
  value: (object [(shorthand_property_identifier) @object_key
                  (pair key: (property_identifier) @object_key value: (identifier) @object_value)])))))
(program (export_statement value: (object [(shorthand_property_identifier) @object_key
  (pair key: (property_identifier) @object_key value: (identifier) @object_value)]) @default_object))
(program (expression_statement (assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: (object [(shorthand_property_identifier) @object_key
    (pair key: (property_identifier) @object_key value: (identifier) @object_value)]) @exports_object)
  (#eq? @_module "module") (#eq? @_exports "exports")))

(class_declaration declaration_kind: "struct" name: (_) @name) @definition.struct
(class_declaration declaration_kind: "enum" name: (_) @name) @definition.enum
(class_declaration declaration_kind: "extension" name: (_) @name) @definition.impl
(class_declaration name: (_) @name) @definition.class
(protocol_declaration name: (_) @name) @definition.interface
(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.method
(init_declaration) @definition.method
; Computed properties and properties with observers are members like methods.
(property_declaration name: (pattern bound_identifier: (simple_identifier) @name) computed_value: (computed_property)) @definition.method
(property_declaration name: (pattern bound_identifier: (simple_identifier) @name) (willset_didset_block)) @definition.method

(comment) @comment
(multiline_comment) @comment
(attribute) @attribute

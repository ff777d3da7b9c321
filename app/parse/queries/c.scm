; Function names sit at the end of a declarator chain (pointers); Python walks it.
(function_definition declarator: (_) @declarator) @definition.function

(type_definition type: (struct_specifier body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (union_specifier body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (enum_specifier body: (_)) declarator: (type_identifier) @name) @definition.enum
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum

(comment) @comment

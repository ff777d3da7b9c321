; Function names sit at the end of a declarator chain (pointers, Foo::bar); Python walks it.
(function_definition declarator: (_) @declarator) @definition.function

(type_definition type: (struct_specifier body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (class_specifier body: (_)) declarator: (type_identifier) @name) @definition.class
(type_definition type: (union_specifier body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (enum_specifier body: (_)) declarator: (type_identifier) @name) @definition.enum
(class_specifier name: (_) @name body: (_)) @definition.class
(struct_specifier name: (_) @name body: (_)) @definition.struct
(union_specifier name: (_) @name body: (_)) @definition.struct
(enum_specifier name: (_) @name body: (_)) @definition.enum
(namespace_definition name: (_) @name) @definition.module
(namespace_definition !name) @definition.module

(comment) @comment

; A function-like macro is a definition; a one-line one a symbol only (c.scm says why).
(preproc_function_def name: (identifier) @name) @definition.function

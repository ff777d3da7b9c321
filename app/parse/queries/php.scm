(namespace_definition name: (_) @name body: (compound_statement)) @definition.module
; namespace App; covers the code up to the next namespace statement.
(namespace_definition name: (_) @name !body) @definition.filemodule
(function_definition name: (name) @name) @definition.function
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(method_declaration name: (name) @name) @definition.method

(comment) @comment
(attribute_list) @attribute

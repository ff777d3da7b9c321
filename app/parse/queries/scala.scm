(class_definition name: (_) @name) @definition.class
(object_definition name: (_) @name) @definition.class
(trait_definition name: (_) @name) @definition.trait
(enum_definition name: (_) @name) @definition.enum
(function_definition name: (_) @name) @definition.function
(function_declaration name: (_) @name) @definition.function

(comment) @comment
(block_comment) @comment
(annotation) @attribute

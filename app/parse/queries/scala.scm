(class_definition name: (_) @name) @definition.class
(object_definition name: (_) @name) @definition.class
(trait_definition name: (_) @name) @definition.trait
(enum_definition name: (_) @name) @definition.enum
(function_definition name: (_) @name) @definition.function
(function_declaration name: (_) @name) @definition.function
; A value that carries logic is a member like a function (as Kotlin's properties with accessors):
; an instance with a body (`implicit val decodeChar: Decoder[Char] = new Decoder[Char] { ... }`)
; or a block (`lazy val table = { ... }`).
(val_definition pattern: (identifier) @name value: (instance_expression (template_body))) @definition.function
(val_definition pattern: (identifier) @name value: (block)) @definition.function

(comment) @comment
(block_comment) @comment
(annotation) @attribute

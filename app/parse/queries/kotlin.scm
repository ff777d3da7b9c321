; The Kotlin grammar has few field names: the name is the direct identifier child.
(class_declaration "interface" (type_identifier) @name) @definition.interface
(class_declaration "enum" (type_identifier) @name) @definition.enum
(class_declaration (type_identifier) @name) @definition.class
(object_declaration (type_identifier) @name) @definition.class
(companion_object) @definition.class
; fun String.foo(): the receiver type qualifies the name.
(function_declaration (receiver_type) @receiver (simple_identifier) @name) @definition.function
(function_declaration (simple_identifier) @name) @definition.function
(secondary_constructor) @definition.method
; Properties that carry logic (a getter or setter, a `by lazy { }` delegate) are members like
; functions; the grammar puts the accessors beside the declaration, the chunk takes them in.
((property_declaration (receiver_type) @receiver (variable_declaration (simple_identifier) @name)) @definition.function . [(getter) (setter)])
((property_declaration (variable_declaration (simple_identifier) @name)) @definition.function . [(getter) (setter)])
(property_declaration (variable_declaration (simple_identifier) @name) (property_delegate (call_expression (call_suffix (annotated_lambda))))) @definition.function

(line_comment) @comment
(multiline_comment) @comment
(annotation) @attribute

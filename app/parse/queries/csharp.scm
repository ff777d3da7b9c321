(namespace_declaration name: (_) @name) @definition.module
; namespace A.B; covers the rest of the file.
(file_scoped_namespace_declaration name: (_) @name) @definition.filemodule
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.type
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(destructor_declaration name: (identifier) @name) @definition.method
; Properties with accessor bodies or an expression body are members like methods;
; auto-properties (`{ get; set; }`) hold no logic and stay in their class.
(property_declaration name: (identifier) @name accessors: (accessor_list (accessor_declaration body: (_)))) @definition.method
(property_declaration name: (identifier) @name value: (arrow_expression_clause)) @definition.method
(local_function_statement name: (identifier) @name) @definition.function

(comment) @comment
(attribute_list) @attribute

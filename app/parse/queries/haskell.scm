; Top-level and class/instance declarations only: a `where` clause's local bindings belong to
; their function. A function's type signature and its equations are one definition
; (definitions.py joins consecutive pieces of one name).
(declarations (signature name: (variable) @name) @definition.function)
(declarations (function name: (variable) @name) @definition.function)
; Operators, named without their parentheses: `(\\) :: ...`, `m1 \\ m2 = ...`, `(!) m k = ...`.
(declarations (signature name: (prefix_id (operator) @name)) @definition.function)
(declarations (function name: (prefix_id (operator) @name)) @definition.function)
(declarations (function (infix operator: (operator) @name)) @definition.function)
(declarations (bind name: (variable) @name) @definition.function)
(declarations (data_type name: (name) @name) @definition.type)
(declarations (newtype name: (name) @name) @definition.type)
(declarations (type_synomym name: (name) @name) @definition.type)
(declarations (class name: (name) @name) @definition.interface)
(declarations (instance name: (name) @name) @definition.impl)
(class_declarations (signature name: (variable) @name) @definition.function)
(class_declarations (function name: (variable) @name) @definition.function)
(class_declarations (bind name: (variable) @name) @definition.function)
(instance_declarations (function name: (variable) @name) @definition.function)
(instance_declarations (bind name: (variable) @name) @definition.function)

(haddock) @comment
(comment) @comment
(pragma) @attribute

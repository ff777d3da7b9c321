; Overload signatures: folded into the implementation that follows them.
(function_signature name: (identifier) @name) @definition.overload
(class_body (method_signature name: (_) @name) @definition.overload)

; Declarations.
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(internal_module name: (_) @name) @definition.module
(module name: (_) @name) @definition.module
(method_definition name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method
(public_field_definition name: (_) @name
  value: [(function_expression) (arrow_function) (generator_function)]) @definition.method
(pair key: (_) @name
  value: [(function_expression) (arrow_function) (generator_function)]) @definition.method

; export default function () {} / export default class {}
(export_statement value: [(function_expression) (arrow_function)]) @definition.function
(export_statement value: (class)) @definition.class

; const f = function/arrow/class; const api = { get() {} };
; export const $ZodString = core.$constructor("$ZodString", (inst, def) => {...});
(variable_declarator name: (identifier) @name
  value: [(function_expression) (arrow_function) (generator_function)]) @definition.function
(variable_declarator name: (identifier) @name value: (class)) @definition.class
(variable_declarator name: (identifier) @name
  value: (object [(method_definition)
                  (pair value: [(function_expression) (arrow_function)])])) @definition.variable
; const authOptions = { callbacks: { session() {} } }: a configuration object's functions
(variable_declarator name: (identifier) @name
  value: (object (pair value: (object [(method_definition)
                                       (pair value: [(function_expression) (arrow_function)])])))) @definition.variable
(variable_declarator name: (identifier) @name
  value: (call_expression
    arguments: (arguments [(function_expression) (arrow_function)]))) @definition.function
(variable_declarator name: (identifier) @name
  value: (assignment_expression
    right: [(function_expression) (arrow_function)])) @definition.function

; CommonJS / prototype style.
(assignment_expression left: (member_expression) @name
  right: [(function_expression) (arrow_function) (generator_function)]) @definition.function
(assignment_expression left: (member_expression) @name right: (class)) @definition.class

; register("name", function name() {}) at statement level.
(expression_statement
  (call_expression
    arguments: (arguments [(function_expression) (arrow_function)]) @call)) @definition.function

(comment) @comment
(decorator) @attribute

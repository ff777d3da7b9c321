; Declarations.
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (identifier) @name) @definition.class
(method_definition name: (_) @name) @definition.method
(field_definition property: (_) @name
  value: [(function_expression) (arrow_function) (generator_function)]) @definition.method
(pair key: (_) @name
  value: [(function_expression) (arrow_function) (generator_function)]) @definition.method

; export default function () {} / export default class {}
(export_statement value: [(function_expression) (arrow_function)]) @definition.function
(export_statement value: (class)) @definition.class

; const f = function/arrow/class; const api = { get() {} }; const X = make("X", () => {})
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

; CommonJS / prototype style: res.send = function send() {}; Layer.prototype.match = ...
(assignment_expression left: (member_expression) @name
  right: [(function_expression) (arrow_function) (generator_function)]) @definition.function
(assignment_expression left: (member_expression) @name right: (class)) @definition.class
(assignment_expression left: (member_expression) @name
  right: (object [(method_definition)
                  (pair value: [(function_expression) (arrow_function)])])) @definition.variable

; defineGetter(req, 'ip', function ip() {}): named by the function or the string argument.
(expression_statement
  (call_expression
    arguments: (arguments [(function_expression) (arrow_function)]) @call)) @definition.function

(comment) @comment
(decorator) @attribute

; Call sites and bases for the call graph, by name (app/parse/calls.py).
(invocation_expression function: (identifier) @callee) @call
(invocation_expression function: (member_access_expression expression: _ @receiver
  name: (identifier) @callee)) @call
(invocation_expression function: (_) @dynamic) @call
(object_creation_expression type: (identifier) @callee) @call
(using_directive) @import
(class_declaration (base_list (_) @base)) @class
; Local types: `Widget w = ...`, `var w = new Widget()`, parameters.
(variable_declaration type: (identifier) @type (variable_declarator name: (identifier) @var)) @bind
(variable_declarator name: (identifier) @var (object_creation_expression type: (identifier) @type)) @bind
(parameter type: (identifier) @type name: (identifier) @var) @bind
(foreach_statement type: [(identifier) (predefined_type) (generic_name)] @type
  left: (identifier) @var) @bind  ; foreach (Foo x in xs), foreach (string s in names)
; Builtin types and values: `string s`, `List<int> xs`, `var t = "abc"`.
(parameter type: [(predefined_type) (generic_name)] @type name: (identifier) @var) @bind
(variable_declaration type: [(predefined_type) (generic_name)] @type
  (variable_declarator name: (identifier) @var)) @bind
(variable_declarator name: (identifier) @var
  [(string_literal) (verbatim_string_literal) (interpolated_string_expression)] @literal) @bind
; What a method returns (`Foo bar()`, `bar(): Foo`, `-> Foo`): a call chain's next receiver.
(method_declaration returns: (_) @returns) @method
; A variable bound to what a call returns: `var sm = Factory.Create()`.
(variable_declarator name: (identifier) @var
  (invocation_expression function: [(identifier) (member_access_expression)]) @result) @bind
; A function literal: its parameters and variables are its own (`func(w, r *http.Request)`).
[(lambda_expression) (anonymous_method_expression)] @closure

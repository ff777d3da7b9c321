; Call sites, imports and bases for the call graph (app/parse/calls.py reads the captures).
(method_invocation object: (_) @receiver name: (identifier) @callee) @call
(method_invocation !object name: (identifier) @callee) @call
(object_creation_expression type: [(type_identifier) (generic_type (type_identifier))] @callee) @call
; `new Outer.Inner<T>()`, `new p.Empty()`: made through what the name is qualified by.
(object_creation_expression type: [(scoped_type_identifier (_) @receiver . (type_identifier) @callee .)
  (generic_type (scoped_type_identifier (_) @receiver . (type_identifier) @callee .))]) @call
(import_declaration) @import
(class_declaration superclass: (superclass (_) @base)) @class
(class_declaration interfaces: (super_interfaces (type_list (_) @base))) @class
(interface_declaration (extends_interfaces (type_list (_) @base))) @class
; Local types: declarations name them.
((local_variable_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @var))
  @bind (#not-eq? @type "var"))
((resource type: (_) @type name: (identifier) @var) @bind (#not-eq? @type "var"))  ; try (Foo f = ..)
; `var x = new Foo()`, `var x = make()`: what the value is.
([(local_variable_declaration type: (type_identifier) @_var
    declarator: (variable_declarator name: (identifier) @var
      value: (object_creation_expression type: (_) @type)))
  (resource type: (type_identifier) @_var name: (identifier) @var
    value: (object_creation_expression type: (_) @type))] @bind (#eq? @_var "var"))
([(local_variable_declaration type: (type_identifier) @_var
    declarator: (variable_declarator name: (identifier) @var value: (method_invocation) @result))
  (resource type: (type_identifier) @_var name: (identifier) @var
    value: (method_invocation) @result)] @bind (#eq? @_var "var"))
(formal_parameter type: (_) @type name: (identifier) @var) @bind
(field_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @var)) @bind
(constant_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @var))
  @bind  ; an interface's `Foo NONE = ...`
(enhanced_for_statement type: (_) @type name: (identifier) @var) @bind  ; for (Foo x : xs)
; What a method returns (`Foo bar()`, `bar(): Foo`, `-> Foo`): a call chain's next receiver.
(method_declaration type: (_) @returns) @method
; A function literal: its parameters and variables are its own (`func(w, r *http.Request)`).
(lambda_expression) @closure

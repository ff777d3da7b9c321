; Call sites, imports and bases for the call graph (app/parse/calls.py reads the captures).
(method_invocation object: (_) @receiver name: (identifier) @callee) @call
(method_invocation !object name: (identifier) @callee) @call
(object_creation_expression type: [(type_identifier) (generic_type)] @callee) @call
(import_declaration) @import
(class_declaration superclass: (superclass (_) @base)) @class
(class_declaration interfaces: (super_interfaces (type_list (_) @base))) @class
(interface_declaration (extends_interfaces (type_list (_) @base))) @class
; Local types: declarations name them.
(local_variable_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @var)) @bind
(formal_parameter type: (_) @type name: (identifier) @var) @bind
(field_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @var)) @bind
(enhanced_for_statement type: (_) @type name: (identifier) @var) @bind  ; for (Foo x : xs)
; What a method returns (`Foo bar()`, `bar(): Foo`, `-> Foo`): a call chain's next receiver.
(method_declaration type: (_) @returns) @method
; A function literal: its parameters and variables are its own (`func(w, r *http.Request)`).
(lambda_expression) @closure

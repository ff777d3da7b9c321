; Call sites and bases for the call graph, by name (app/parse/calls.py): `f(x)`, `a.f(x)`,
; `new C(x)`, `f[T](x)`, and the classes and traits a definition extends.
(call_expression function: (identifier) @callee) @call
(call_expression function: (field_expression value: (_) @receiver field: (identifier) @callee)) @call
(call_expression function: (generic_function function: (identifier) @callee)) @call
(call_expression function: (generic_function function: (field_expression value: (_) @receiver
  field: (identifier) @callee))) @call
(instance_expression . (type_identifier) @callee) @call @new
(class_definition extend: (extends_clause type: (_) @base)) @class
(object_definition extend: (extends_clause type: (_) @base)) @class
(trait_definition extend: (extends_clause type: (_) @base)) @class
; Local types: `val c = new Circle(2)`, `val c: Circle = ...`, parameters `(c: Circle)`.
(val_definition pattern: (identifier) @var type: (_) @type) @bind
(val_definition pattern: (identifier) @var value: (instance_expression . (_) @type)) @bind
(var_definition pattern: (identifier) @var type: (_) @type) @bind
(var_definition pattern: (identifier) @var value: (instance_expression . (_) @type)) @bind
(parameter name: (identifier) @var type: (_) @type) @bind
; `import a.b.C`, `import a.b.{C, D => E}`, `import a.b._` (the package clause: calls.py).
(import_declaration) @import
; A function literal: its parameters and variables are its own (`func(w, r *http.Request)`).
(lambda_expression) @closure

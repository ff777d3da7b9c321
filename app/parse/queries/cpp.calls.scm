; Call sites and bases for the call graph, by name (app/parse/calls.py).
(call_expression function: (identifier) @callee) @call
(call_expression function: (field_expression argument: (_) @receiver
  field: (field_identifier) @callee)) @call
(call_expression function: (qualified_identifier scope: (_) @receiver
  name: (identifier) @callee)) @call
(call_expression function: (_) @dynamic) @call
(class_specifier (base_class_clause [(type_identifier)
  (qualified_identifier name: (type_identifier))] @base)) @class
(struct_specifier (base_class_clause [(type_identifier)
  (qualified_identifier name: (type_identifier))] @base)) @class
; Local types: `Calc c;`, `Calc c(1);`, `CLI::App app{"x"};`, `Calc* c = ...;`, `void f(Calc& c)`.
(declaration type: [(type_identifier) (qualified_identifier name: (type_identifier))] @type
  declarator: [(identifier) (pointer_declarator declarator: (identifier))
  (reference_declarator (identifier))] @var) @bind
(declaration type: [(type_identifier) (qualified_identifier name: (type_identifier))] @type
  declarator: (init_declarator declarator: [(identifier)
  (pointer_declarator declarator: (identifier)) (reference_declarator (identifier))] @var)) @bind
(parameter_declaration type: [(type_identifier) (qualified_identifier name: (type_identifier))] @type
  declarator: [(identifier) (pointer_declarator declarator: (identifier))
  (reference_declarator (identifier))] @var) @bind

; Call sites and bases for the call graph, by name (app/parse/calls.py).
(call_expression function: (identifier) @callee) @call
(call_expression function: (field_expression argument: (_) @receiver
  field: (field_identifier) @callee)) @call
(call_expression function: (qualified_identifier scope: (_) @receiver
  name: (identifier) @callee)) @call
(call_expression function: (_) @dynamic) @call
(class_specifier (base_class_clause (type_identifier) @base)) @class
(struct_specifier (base_class_clause (type_identifier) @base)) @class

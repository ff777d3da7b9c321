; Call sites for the call graph, by name (app/parse/calls.py).
(call_expression function: (identifier) @callee) @call
(call_expression function: (field_expression argument: (_) @receiver
  field: (field_identifier) @callee)) @call
(call_expression function: (_) @dynamic) @call

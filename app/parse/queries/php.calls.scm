; Call sites and bases for the call graph, by name (app/parse/calls.py).
(function_call_expression function: (name) @callee) @call
(function_call_expression function: (_) @dynamic) @call
(member_call_expression object: (_) @receiver name: (name) @callee) @call
(scoped_call_expression scope: (_) @receiver name: (name) @callee) @call
(object_creation_expression (name) @callee) @call
(class_declaration (base_clause (name) @base)) @class

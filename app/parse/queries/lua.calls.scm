; Call sites for the call graph, by name (app/parse/calls.py): `f()`, `M.f()`, `obj:m()`.
(function_call name: (identifier) @callee) @call
(function_call name: (dot_index_expression table: (_) @receiver field: (identifier) @callee)) @call
(function_call name: (method_index_expression table: (_) @receiver method: (identifier) @callee)) @call

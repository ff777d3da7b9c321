; Call sites for the call graph, by name (app/parse/calls.py).
(call_expression (simple_identifier) @callee) @call
(call_expression (navigation_expression (_) @receiver
  (navigation_suffix (simple_identifier) @callee))) @call

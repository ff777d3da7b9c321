; Call sites and bases for the call graph, by name (app/parse/calls.py).
(call receiver: (_) @receiver method: (identifier) @callee) @call
(call !receiver method: (identifier) @callee) @call
(class superclass: (superclass (_) @base)) @class

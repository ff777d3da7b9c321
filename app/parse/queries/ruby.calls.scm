; Call sites and bases for the call graph, by name (app/parse/calls.py).
(call receiver: (_) @receiver method: (identifier) @callee) @call
(call !receiver method: (identifier) @callee) @call
(class superclass: (superclass (_) @base)) @class
; Local types: `c = Shapes::Circle.new(...)`.
(assignment left: (identifier) @var right: (call receiver: [(constant) (scope_resolution)] @type
  method: (identifier) @_new (#eq? @_new "new"))) @bind
; Modules an object is extended with: `copy.extend(Hashie::Extensions::DeepMerge)`.
(call receiver: (identifier) @var method: (identifier) @_extend (#eq? @_extend "extend")
  arguments: (argument_list . [(constant) (scope_resolution)] @extended)) @bind

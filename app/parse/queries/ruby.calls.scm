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
; Modules a class or module mixes in (`include Enumerable`, `prepend Extensions::Dash`): their
; methods are its own, read after its superclass's as bases.
(class body: (body_statement (call !receiver method: (identifier) @_include
  arguments: (argument_list [(constant) (scope_resolution)] @base))
  (#match? @_include "^(include|prepend)$"))) @class
(module body: (body_statement (call !receiver method: (identifier) @_include
  arguments: (argument_list [(constant) (scope_resolution)] @base))
  (#match? @_include "^(include|prepend)$"))) @class

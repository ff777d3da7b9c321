; Call sites, imports and bases for the call graph (app/parse/calls.py reads the captures).
(call function: (identifier) @callee) @call
(call function: (attribute object: (_) @receiver attribute: (identifier) @callee)) @call
(call function: (_) @dynamic) @call
(import_statement) @import
(import_from_statement) @import
(class_definition superclasses: (argument_list [(identifier) (attribute)] @base)) @class
; Local types: `c = Client(...)`, `with Client() as c`, `def f(c: Client)`.
(assignment left: (identifier) @var right: (call function: [(identifier) (attribute)] @type)) @bind
(with_item value: (as_pattern (call function: [(identifier) (attribute)] @type)
  alias: (as_pattern_target (identifier) @var))) @bind
(typed_parameter (identifier) @var type: (type [(identifier) (attribute)] @type)) @bind
(typed_default_parameter name: (identifier) @var type: (type [(identifier) (attribute)] @type)) @bind

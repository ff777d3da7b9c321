; Call sites and bases for the call graph, by name (app/parse/calls.py).
(call receiver: (_) @receiver method: (identifier) @callee) @call
(call !receiver method: (identifier) @callee) @call
(class superclass: (superclass (_) @base)) @class
; Local types: `c = Shapes::Circle.new(...)`; a field's, `@items = Items.new` (in every method).
(assignment left: [(identifier) (instance_variable)] @var right: (call receiver: [(constant) (scope_resolution)] @type
  method: (identifier) @_new (#eq? @_new "new"))) @bind
; A class method's `doc = new(context)`: what the call makes (the resolver reads its class).
(assignment left: (identifier) @var right: (call !receiver method: (identifier) @_new
  (#eq? @_new "new")) @result) @bind
; Modules an object is extended with: `copy.extend(Hashie::Extensions::DeepMerge)`.
(call receiver: (identifier) @var method: (identifier) @_extend (#eq? @_extend "extend")
  arguments: (argument_list . [(constant) (scope_resolution)] @extended)) @bind
; Modules a class or module mixes in (`include Enumerable`, `prepend Extensions::Dash`): their
; methods are its own, read before its superclass's as bases, as Ruby looks them up. Class
; methods are not told apart from instance methods: `extend ClassMethods` is one more base.
(class body: (body_statement (call !receiver method: (identifier) @_include
  arguments: (argument_list [(constant) (scope_resolution)] @base))
  (#match? @_include "^(include|prepend|extend)$"))) @class
(module body: (body_statement (call !receiver method: (identifier) @_include
  arguments: (argument_list [(constant) (scope_resolution)] @base))
  (#match? @_include "^(include|prepend|extend)$"))) @class
; A module that mixes more into whatever includes it (`def self.included(base)` with
; `base.extend(ClassMethods)` or `base.send(:include, X)`): those are its bases too, since
; every class that includes it has them.
(module body: (body_statement (singleton_method name: (identifier) @_hook
  body: (body_statement (call receiver: (identifier) method: (identifier) @_include
    arguments: (argument_list [(constant) (scope_resolution)] @base))))
  (#match? @_hook "^(included|extended|prepended)$")
  (#match? @_include "^(include|prepend|extend)$"))) @class
(module body: (body_statement (singleton_method name: (identifier) @_hook
  body: (body_statement (call receiver: (identifier) method: (identifier) @_send
    arguments: (argument_list . (simple_symbol) @_how . [(constant) (scope_resolution)] @base))))
  (#match? @_hook "^(included|extended|prepended)$") (#eq? @_send "send")
  (#match? @_how "^:(include|prepend|extend)$"))) @class
; A method's second name: `alias to_s inspect`, `alias_method :merge, :deep_merge`.
(class body: (body_statement (alias name: (_) @method_alias alias: (_) @aliased_method))) @class
(module body: (body_statement (alias name: (_) @method_alias alias: (_) @aliased_method))) @class
(class body: (body_statement (call !receiver method: (identifier) @_alias_method
  arguments: (argument_list . (simple_symbol) @method_alias . (simple_symbol) @aliased_method))
  (#eq? @_alias_method "alias_method"))) @class
(module body: (body_statement (call !receiver method: (identifier) @_alias_method
  arguments: (argument_list . (simple_symbol) @method_alias . (simple_symbol) @aliased_method))
  (#eq? @_alias_method "alias_method"))) @class

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
; A block is a scope: a variable first bound in it is its own, and it sees its surroundings'.
[(block) (do_block)] @closure
; RSpec: in `describe Foo do ... end`, `described_class` is Foo and `subject` one of its
; instances, unless a `subject { ... }` inside says otherwise.
(call method: (identifier) @_describe (#eq? @_describe "describe")
  arguments: (argument_list . [(constant) (scope_resolution)] @described_class)
  block: (do_block) @described)
; RSpec's `let(:mash) { Hashie::Mash.new }` and `subject { Dash.new }` (`subject(:dash)`
; names it twice): a method every example in the block calls, typed by the value its block
; ends with (app/parse/calls.py reads it).
(call !receiver method: (identifier) @_let (#match? @_let "^(let!?|subject!?)$")
  arguments: (argument_list . (simple_symbol) @var)
  block: [(block (block_body (_) @let_value .)) (do_block (body_statement (_) @let_value .))]) @let
; A variable bound to one (`mash = described_class.new(a: 1)` in an example), read the same way.
(assignment left: (identifier) @var
  right: (call receiver: (identifier) @_described (#eq? @_described "described_class")) @let_value) @let
(call !receiver method: (identifier) @var (#match? @var "^subject!?$")
  block: [(block (block_body (_) @let_value .)) (do_block (body_statement (_) @let_value .))]) @let
; Class methods: `def self.parse`, a `def` inside `class << self`; and the modules a class's
; own methods come from: `extend ClassMethods` in its body, `include` inside `class << self`.
; `Foo.parse` is looked up there before Foo's instance methods (app/graph/ruby.py).
(singleton_method) @singleton_def
(singleton_class (body_statement (method) @singleton_def))
(class body: (body_statement (call !receiver method: (identifier) @_extend
  arguments: (argument_list [(constant) (scope_resolution)] @singleton_base))
  (#eq? @_extend "extend"))) @class
(module body: (body_statement (call !receiver method: (identifier) @_extend
  arguments: (argument_list [(constant) (scope_resolution)] @singleton_base))
  (#eq? @_extend "extend"))) @class
(class body: (body_statement (singleton_class (body_statement (call !receiver
  method: (identifier) @_include arguments: (argument_list [(constant) (scope_resolution)] @singleton_base))
  (#eq? @_include "include"))))) @class
(module body: (body_statement (singleton_class (body_statement (call !receiver
  method: (identifier) @_include arguments: (argument_list [(constant) (scope_resolution)] @singleton_base))
  (#eq? @_include "include"))))) @class

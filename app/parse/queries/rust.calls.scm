; Call sites, imports and trait impls for the call graph (app/parse/calls.py).
(call_expression function: (identifier) @callee) @call
(call_expression function: (field_expression value: (_) @receiver
  field: (field_identifier) @callee)) @call
(call_expression function: (scoped_identifier path: (_) @receiver name: (identifier) @callee)) @call
(call_expression function: (generic_function function: (identifier) @callee)) @call
(call_expression function: (generic_function function: (scoped_identifier
  path: (_) @receiver name: (identifier) @callee))) @call
(call_expression function: (generic_function function: (field_expression value: (_) @receiver
  field: (field_identifier) @callee))) @call
(call_expression function: (_) @dynamic) @call
(use_declaration) @import
(impl_item trait: (_) @base) @class
; Local types: `let c = Client::new()`, `let c: Client`, parameters.
(let_declaration pattern: (identifier) @var type: (_) @type) @bind
(let_declaration pattern: (identifier) @var value: (call_expression
  function: (scoped_identifier path: (identifier) @type))) @bind
(let_declaration pattern: (identifier) @var value: (struct_expression name: (type_identifier) @type)) @bind
(parameter pattern: (identifier) @var type: (_) @type) @bind
; A loop's items: `for l in &self.labels`, `for &n in nodes.iter()` (what the walked value holds).
(for_expression pattern: [(identifier) @var (reference_pattern (identifier) @var)]
  value: (_) @element_of) @bind
; An element: `let e = node.next[k];`, `let n = &self.nodes[i];` (what the indexed value holds).
(let_declaration pattern: (identifier) @var value: [(index_expression . (_) @element_of)
  (reference_expression value: (index_expression . (_) @element_of))]) @bind
; A struct's fields: `g: Graph<N, E>` types `self.g.add_node()`.
(field_declaration name: (field_identifier) @var type: (_) @type) @bind
; Type aliases: `type NodeIndex<Ix> = GraphNodeIndex<Ix>;` names GraphNodeIndex, and
; `type EntryList = linked_list::LinkedList<T>;` linked_list's LinkedList.
(type_item name: (type_identifier) @var type: [(type_identifier) (scoped_type_identifier)
  (generic_type type: [(type_identifier) (scoped_type_identifier)])] @alias) @bind
; Local aliases: `let f = util::square;` then `f(2)`.
(let_declaration pattern: (identifier) @var value: (scoped_identifier) @alias) @bind
; What a method returns (`Foo bar()`, `bar(): Foo`, `-> Foo`): a call chain's next receiver.
(function_item return_type: (_) @returns) @method
; A variable bound to what a free function returns: `let g = make_graph();`.
(let_declaration pattern: (identifier) @var value: (call_expression function: (identifier)) @result) @bind
; ... and what a method returns: `let ix = self.g.add_node(w);`.
(let_declaration pattern: (identifier) @var value: (call_expression
  function: (field_expression)) @result) @bind
; A function literal: its parameters and variables are its own (`func(w, r *http.Request)`).
(closure_expression) @closure

; Call sites, imports and embedded types for the call graph (app/parse/calls.py).
(call_expression function: (identifier) @callee) @call
(call_expression function: (selector_expression operand: (_) @receiver
  field: (field_identifier) @callee)) @call
(call_expression function: (_) @dynamic) @call
(import_spec) @import
(type_spec type: (struct_type (field_declaration_list
  (field_declaration !name type: (_) @base)))) @class
(type_spec type: (interface_type (type_elem (_) @base))) @class
; Local types: `c := Client{}`, `c := &Client{}`, `var c Client`, parameters.
(short_var_declaration left: (expression_list . (identifier) @var)
  right: (expression_list . (composite_literal type: (_) @type))) @bind
(short_var_declaration left: (expression_list . (identifier) @var)
  right: (expression_list . (unary_expression operand: (composite_literal type: (_) @type)))) @bind
(var_spec name: (identifier) @var type: (_) @type) @bind
; `r := new(Router)`: a new Router.
(short_var_declaration left: (expression_list . (identifier) @var)
  right: (expression_list . (call_expression function: (identifier) @_new
    arguments: (argument_list . (_) @type .)))
  (#eq? @_new "new")) @bind
; `for _, route := range r.routes`: the value of each element (a slice's type reads as its
; element's, calls.py).
(range_clause left: (expression_list (_) . (identifier) @var .) right: (_) @element_of) @bind
; `nn := n`: the same value.
(short_var_declaration left: (expression_list . (identifier) @var)
  right: (expression_list . (identifier) @value_of .)) @bind
; `nds := n.children[typ]`: an element too.
(short_var_declaration left: (expression_list . (identifier) @var)
  right: (expression_list . (index_expression operand: (_) @element_of))) @bind
; `type nodes []*node`: an element of a nodes is a node (calls.py ELEMENT).
(type_spec name: (type_identifier) @container
  type: [(slice_type) (array_type) (map_type) (channel_type)] @element)
; A struct's fields: `tree *node` types `mx.tree` in the methods of its type.
(field_declaration name: (field_identifier) @var type: (_) @type) @bind
(parameter_declaration name: (identifier) @var type: (_) @type) @bind
; Local aliases: `f := shapes.Area` then `f(1)`.
(short_var_declaration left: (expression_list . (identifier) @var)
  right: (expression_list . (selector_expression) @alias)) @bind
; A variable bound to what a call returns: `r := NewRouter()`, `c := pkg.New(x)`.
(short_var_declaration left: (expression_list . (identifier) @var)
  right: (expression_list . (call_expression function: [(identifier) (selector_expression)]) @result)) @bind
(function_declaration result: (_) @returns) @method
(method_declaration result: (_) @returns) @method
; A function literal: its parameters and variables are its own (`func(w, r *http.Request)`).
(func_literal) @closure

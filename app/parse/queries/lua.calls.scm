; Call sites for the call graph, by name (app/parse/calls.py): `f()`, `M.f()`, `obj:m()`.
(function_call name: (identifier) @callee) @call
(function_call name: (dot_index_expression table: (_) @receiver field: (identifier) @callee)) @call
(function_call name: (method_index_expression table: (_) @receiver method: (identifier) @callee)) @call
; `local Path = require("plenary.path")`, `J = require "job"`, `local f = require("m").field`.
(assignment_statement
  (variable_list . name: (identifier))
  (expression_list . value: (function_call
    name: (identifier) @_require (#eq? @_require "require")))) @import
(assignment_statement
  (variable_list . name: (identifier))
  (expression_list . value: (dot_index_expression
    table: (function_call name: (identifier) @_require (#eq? @_require "require"))))) @import
; (What the module returns, its globals and its tables' aliased fields: calls.py, _lua_module.)
; `local job = Job:new({...})`, `local p = Path.new(x)`: an instance of that table's class.
(assignment_statement
  (variable_list . name: (identifier) @var)
  (expression_list . value: (function_call
    name: (method_index_expression table: (identifier) @type method: (identifier) @_new)
    (#eq? @_new "new")))) @bind
(assignment_statement
  (variable_list . name: (identifier) @var)
  (expression_list . value: (function_call
    name: (dot_index_expression table: (identifier) @type field: (identifier) @_new)
    (#eq? @_new "new")))) @bind

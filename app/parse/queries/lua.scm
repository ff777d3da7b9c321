(function_declaration name: (_) @name) @definition.function
; local f = function() end / M.f = function() end
(assignment_statement
  (variable_list . name: (_) @name)
  (expression_list . value: (function_definition))) @definition.function
; local gen_size = (function() ... return function(size) end end)(): a closure made once
(assignment_statement
  (variable_list . name: (_) @name)
  (expression_list . value: (function_call
    name: (parenthesized_expression (function_definition))))) @definition.function
; M.sleep = a.wrap(function(ms, callback) ... end, 2): a function handed to a wrapper
(assignment_statement
  (variable_list . name: (_) @name)
  (expression_list . value: (function_call
    arguments: (arguments . (function_definition))))) @definition.function
; A table that holds functions, bound to a name, is a class and they are its members:
; M.sources = { nvim_lsp = function() end }, local Job = setmetatable({ start = function() end })
(assignment_statement
  (variable_list . name: (_) @name)
  (expression_list . value: [
    (table_constructor (field value: (function_definition)))
    (function_call arguments: (arguments . (table_constructor
      (field value: (function_definition)))))
  ])) @definition.class
(field name: (identifier) @name value: (function_definition)) @definition.function
; A table declared as a class by LuaLS annotations right above it (`---@class Job`, its
; `---@field` lines): `local Job = {}`, whose methods are defined after it.
((comment) @_annotation .
  (variable_declaration (assignment_statement
    (variable_list . name: (_) @name)
    (expression_list . value: (table_constructor)))) @definition.class
  (#match? @_annotation "^---@(class|field)"))
((comment) @_annotation .
  (assignment_statement
    (variable_list . name: (_) @name)
    (expression_list . value: (table_constructor))) @definition.class
  (#match? @_annotation "^---@(class|field)"))

(comment) @comment

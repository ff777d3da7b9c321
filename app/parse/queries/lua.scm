(function_declaration name: (_) @name) @definition.function
; local f = function() end / M.f = function() end
(assignment_statement
  (variable_list . name: (_) @name)
  (expression_list . value: (function_definition))) @definition.function

(comment) @comment

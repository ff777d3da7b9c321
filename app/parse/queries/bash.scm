(function_definition name: (word) @name) @definition.function

(comment) @comment

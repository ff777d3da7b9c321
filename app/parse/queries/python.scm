; Definitions: classes and functions (methods and nested functions are told apart in Python).
(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function

(comment) @comment
(decorator) @attribute

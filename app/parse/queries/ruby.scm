(class name: (_) @name) @definition.class
(module name: (_) @name) @definition.module
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.function

(comment) @comment
